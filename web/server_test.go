package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte, mod time.Time) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	wasm := bytes.Repeat([]byte("\x00asm"), 1000)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(wasm)
	zw.Close()
	write("index.html", []byte("<!doctype html><title>x</title>"), now)
	write("main.wasm", wasm, now)
	write("main.wasm.gz", gz.Bytes(), now)
	write("server.go", []byte("package web"), now)
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()

	get := func(path, enc string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		if enc != "" {
			req.Header.Set("Accept-Encoding", enc)
		}
		// A Transport that does not add or undo gzip by itself.
		resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}

	r := get("/", "")
	if r.StatusCode != 200 || r.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Errorf("/: %d %q", r.StatusCode, r.Header.Get("Content-Type"))
	}
	r = get("/main.wasm", "gzip, br")
	body, _ := io.ReadAll(r.Body) // no .br yet: gzip
	if r.Header.Get("Content-Encoding") != "gzip" || r.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, gz.Bytes()) {
		t.Errorf("main.wasm with gzip: encoding %q type %q, %d bytes", r.Header.Get("Content-Encoding"), r.Header.Get("Content-Type"), len(body))
	}
	r = get("/main.wasm", "")
	body, _ = io.ReadAll(r.Body)
	if r.Header.Get("Content-Encoding") != "" || r.Header.Get("Content-Type") != "application/wasm" || !bytes.Equal(body, wasm) {
		t.Errorf("main.wasm without gzip: encoding %q, %d bytes", r.Header.Get("Content-Encoding"), len(body))
	}
	if r = get("/main.wasm", "gzip;q=0"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("gzip;q=0 still got gzip")
	}
	// With a main.wasm.br, a client accepting br gets it; one accepting
	// only gzip still gets the .gz.
	br := []byte("pretend-brotli")
	write("main.wasm.br", br, now)
	r = get("/main.wasm", "gzip, deflate, br")
	body, _ = io.ReadAll(r.Body)
	if r.Header.Get("Content-Encoding") != "br" || !bytes.Equal(body, br) {
		t.Errorf("main.wasm with br: encoding %q, %d bytes", r.Header.Get("Content-Encoding"), len(body))
	}
	if r = get("/main.wasm", "gzip"); r.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzip-only client got %q", r.Header.Get("Content-Encoding"))
	}
	write("main.wasm.br", br, now.Add(-time.Hour))
	if r = get("/main.wasm", "br"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("stale main.wasm.br served")
	}
	// A stale .gz (older than main.wasm) is not served.
	write("main.wasm.gz", gz.Bytes(), now.Add(-time.Hour))
	if r = get("/main.wasm", "gzip"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("stale main.wasm.gz served")
	}
	for _, p := range []string{"/server.go", "/../etc/passwd", "/nope.js", "/sub/index.html"} {
		if r = get(p, ""); r.StatusCode != 404 {
			t.Errorf("%s: status %d, want 404", p, r.StatusCode)
		}
	}
	req, _ := http.NewRequest("POST", srv.URL+"/", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %v %v", resp.StatusCode, err)
	}
}
