//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// plainHost resolves to the test server (the browser's host-resolver-rules)
// but is not localhost: a page from it is not a secure context.
const plainHost = "schedplay-plain.test"

// TestDownloadPlainHTTP: all the wasm the page fetches over plain HTTP from
// a host that is not localhost (where Chromium does not ask for br, so it
// gets the gzip file) is at most 3.5 MB over the wire (resource timing's
// transferSize), in one fetch (issue 19). The 127.0.0.1 origin of the
// other tests is a secure context: Chromium gets the brotli file there.
func TestDownloadPlainHTTP(t *testing.T) {
	tb := newTab(t, true)
	u, err := url.Parse(serverURL)
	if err != nil {
		t.Fatal(err)
	}
	u.Host = plainHost + ":" + u.Port()
	tb.open(u.String())
	if eval[bool](tb, `window.isSecureContext`) {
		t.Fatalf("%s is a secure context: the test would not see what plain HTTP gets", u)
	}
	var wasm []struct {
		Name     string  `json:"name"`
		Transfer float64 `json:"transfer"`
		Encoded  float64 `json:"encoded"`
		Decoded  float64 `json:"decoded"`
	}
	if err := json.Unmarshal(eval[[]byte](tb, `performance.getEntriesByType("resource").filter((e) => /\.wasm(\?|$)/.test(e.name)).map((e) => ({name: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}))`), &wasm); err != nil {
		t.Fatal(err)
	}
	total, body := 0.0, 0.0
	for _, w := range wasm {
		total += w.Transfer
		body += w.Encoded
	}
	// What coding the server chose for this browser here: the same request
	// again (not from the cache), its Content-Encoding.
	ctx, cancel := context.WithTimeout(tb.ctx, 30*time.Second)
	defer cancel()
	coding, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("main.wasm", {cache: "no-store"}).then((r) => r.headers.get("content-encoding") || "identity")`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wasm over plain HTTP (%s): %d fetch(es), %.3f MB over the wire (%.0f bytes; body %.0f, decoded %.0f), Content-Encoding %s",
		u.Host, len(wasm), total/1e6, total, body, wasm[0].Decoded, coding)
	if len(wasm) != 1 {
		t.Errorf("main.wasm fetched %d times; the page and its worker share one module", len(wasm))
	}
	if coding != "gzip" {
		t.Errorf("Content-Encoding %q over plain HTTP; want gzip (Chromium asks for br only from secure origins)", coding)
	}
	if gz, err := os.Stat(filepath.Join("..", "web", "main.wasm.gz")); err == nil && body != float64(gz.Size()) {
		t.Errorf("the body over the wire is %.0f bytes, web/main.wasm.gz %d", body, gz.Size())
	}
	if total <= 0 || total > 3.5e6 {
		t.Errorf("%.3f MB of wasm over plain HTTP; want more than 0 and at most 3.5 MB", total/1e6)
	}
}
