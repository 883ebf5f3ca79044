package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
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
	sum := sha256.Sum256(wasm)
	write("main.wasm.sha256", []byte(hex.EncodeToString(sum[:])+"  web/main.wasm\n"), now)
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
	// Issue 18, item 6: brotli stamps its output with a whole-second time,
	// older than main.wasm; the copies are chosen by content, so a .br
	// that looks older is still served...
	write("main.wasm.br", br, now.Add(-time.Second))
	if r = get("/main.wasm", "br"); r.Header.Get("Content-Encoding") != "br" {
		t.Errorf("main.wasm.br older by its mtime only was not served")
	}
	// ... and copies of another main.wasm are not, whatever their times.
	wasm2 := append(bytes.Clone(wasm), 1)
	write("main.wasm", wasm2, now.Add(-time.Hour))
	for _, enc := range []string{"br", "gzip"} {
		r = get("/main.wasm", enc)
		body, _ = io.ReadAll(r.Body)
		if r.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm2) {
			t.Errorf("%s copy of another main.wasm served", enc)
		}
	}
	os.Remove(filepath.Join(dir, "main.wasm.sha256"))
	write("main.wasm", wasm, now)
	if r = get("/main.wasm", "gzip"); r.Header.Get("Content-Encoding") != "" {
		t.Errorf("without main.wasm.sha256 a copy was served")
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

// TestSecurityHeaders: issue 18, item 6. The CSP was only a <meta>, where
// frame-ancestors does not apply: any site could frame the page.
func TestSecurityHeaders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html>"), 0o644)
	for _, tc := range []struct {
		opt  Options
		fa   string
		xfo  string
		path string
	}{
		{Options{}, "frame-ancestors 'self'", "SAMEORIGIN", "/"},
		{Options{}, "frame-ancestors 'self'", "SAMEORIGIN", "/missing.js"},
		{Options{FrameAncestors: "'self' https://slides.example.org"}, "frame-ancestors 'self' https://slides.example.org", "", "/"},
	} {
		srv := httptest.NewServer(HandlerWith(dir, tc.opt))
		resp, err := http.Get(srv.URL + tc.path)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		if !strings.HasSuffix(csp, "; "+tc.fa) || !strings.HasPrefix(csp, CSP) || h.Get("X-Frame-Options") != tc.xfo ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") != "no-referrer" {
			t.Errorf("%+v %s: headers %v", tc.opt, tc.path, h)
		}
	}
	// The page's <meta> CSP is the same policy (without frame-ancestors).
	page, err := os.ReadFile("index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `content="`+CSP+`"`) {
		t.Errorf("index.html's CSP differs from web.CSP")
	}
}

// TestIdleConnectionsClosed: issue 18, item 6. Without an IdleTimeout an
// idle keep-alive connection stayed open for ever.
func TestIdleConnectionsClosed(t *testing.T) {
	srv := NewServer(HandlerWith(t.TempDir(), Options{}))
	if srv.IdleTimeout <= 0 || srv.ReadHeaderTimeout <= 0 || srv.IdleTimeout > 10*time.Minute {
		t.Fatalf("timeouts: idle %v, read header %v", srv.IdleTimeout, srv.ReadHeaderTimeout)
	}
	srv.IdleTimeout = 200 * time.Millisecond // the same mechanism, faster
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("GET /nope.js HTTP/1.1\r\nHost: x\r\n\r\n"))
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	c.SetReadDeadline(time.Now().Add(time.Minute)) // generous: a closed connection reads EOF at once
	if _, err := br.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: read %v, want EOF (closed by the server)", err)
	}
}
