// Package web is the static page (index.html, loader.js, style.css; the
// build adds wasm_exec.js, main.wasm, main.wasm.gz and main.wasm.br) and the
// handler that serves it, used by cmd/serve and the browser tests.
package web

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// types are the files the handler serves, by extension; anything else (the
// Go sources in this directory, stray files) is a 404.
var types = map[string]string{
	".html": "text/html; charset=utf-8",
	".js":   "text/javascript; charset=utf-8",
	".css":  "text/css; charset=utf-8",
	".wasm": "application/wasm",
	".png":  "image/png",
	".svg":  "image/svg+xml",
	".json": "application/json",
}

// Options are the server's security settings.
type Options struct {
	// FrameAncestors is the CSP frame-ancestors source list: who may show
	// the page in a frame. "" means DefaultFrameAncestors ('self': nobody
	// else); "'self' https://slides.example.org" lets a slide deck embed
	// it; "*" anyone.
	FrameAncestors string
}

// DefaultFrameAncestors: only the page's own origin may frame it.
const DefaultFrameAncestors = "'self'"

// CSP is the Content-Security-Policy the page needs (index.html repeats it
// in a <meta>, where frame-ancestors cannot be given): its own scripts,
// wasm compilation, no inline code, no plug-ins, no forms, no foreign
// connections.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"

// securityHeaders sets the headers every response carries: the CSP with
// frame-ancestors, nosniff, and no Referer to other sites (the page has
// no reason to tell them where it is hosted; a share link's scenario is in
// the fragment, which is never sent anyway).
func securityHeaders(h http.Header, opt Options) {
	fa := opt.FrameAncestors
	if fa == "" {
		fa = DefaultFrameAncestors
	}
	h.Set("Content-Security-Policy", CSP+"; frame-ancestors "+fa)
	if fa == DefaultFrameAncestors {
		h.Set("X-Frame-Options", "SAMEORIGIN") // for browsers without frame-ancestors
	}
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
}

// Handler serves the files of dir with the default Options.
func Handler(dir string) http.Handler { return HandlerWith(dir, Options{}) }

// HandlerWith serves the files of dir. main.wasm is served precompressed:
// from main.wasm.br with Content-Encoding: br when the client accepts br,
// else from main.wasm.gz with gzip, when main.wasm.sha256 (written by make
// wasm with them) holds the SHA-256 of the main.wasm being served: the
// copies are chosen by content, not by modification times (brotli stamps
// its output with a whole-second time, older than main.wasm). Browsers
// advertise br only in secure contexts: Chromium counts http://127.0.0.1
// as one and gets brotli; a page served over plain HTTP from another host
// gets gzip.
func HandlerWith(dir string, opt Options) http.Handler {
	var digests digestCache
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		securityHeaders(h, opt)
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := path.Clean("/" + r.URL.Path)
		if name == "/" {
			name = "/index.html"
		}
		ctype, ok := types[path.Ext(name)]
		if !ok || strings.Contains(name[1:], "/") {
			http.NotFound(w, r)
			return
		}
		file := filepath.Join(dir, filepath.FromSlash(name[1:]))
		h.Set("Content-Type", ctype)
		h.Set("Cache-Control", "no-cache")
		if path.Ext(name) == ".wasm" {
			h.Add("Vary", "Accept-Encoding")
			if sum, ok := digests.matches(file); ok {
				for _, enc := range []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
					if !accepts(r, enc.coding) {
						continue
					}
					f, err := os.Open(file + enc.ext)
					if err != nil {
						continue
					}
					defer f.Close()
					if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
						h.Set("Content-Encoding", enc.coding)
						h.Set("ETag", `"`+sum[:32]+"-"+enc.coding+`"`)
						http.ServeContent(w, r, name, time.Time{}, f)
						return
					}
				}
			}
		}
		f, err := os.Open(file)
		if err != nil {
			http.NotFound(w, r)
			return
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil || !st.Mode().IsRegular() {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
}

// digestCache remembers the SHA-256 of a file by its size and modification
// time, so that an 18 MB main.wasm is hashed once per build, not per
// request.
type digestCache struct {
	mu   sync.Mutex
	file string
	key  string
	hex  string
}

// matches reports whether file+".sha256" holds the SHA-256 of file's
// content (as sha256sum prints it), and returns that digest.
func (c *digestCache) matches(file string) (string, bool) {
	want, err := os.ReadFile(file + ".sha256")
	if err != nil || len(want) < 64 {
		return "", false
	}
	st, err := os.Stat(file)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	key := strconv.FormatInt(st.Size(), 10) + "/" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.file != file || c.key != key {
		f, err := os.Open(file)
		if err != nil {
			return "", false
		}
		hash := sha256.New()
		_, err = io.Copy(hash, f)
		f.Close()
		if err != nil {
			return "", false
		}
		c.file, c.key, c.hex = file, key, hex.EncodeToString(hash.Sum(nil))
	}
	return c.hex, strings.EqualFold(string(want[:64]), c.hex)
}

// Server timeouts (NewServer): a client has 10 s to send its request
// headers and a minute for the whole request; a response may take 10
// minutes (18 MB of raw wasm over a slow link); an idle keep-alive
// connection is closed after 2 minutes, so idle connections do not pile
// up.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = time.Minute
	WriteTimeout      = 10 * time.Minute
	IdleTimeout       = 2 * time.Minute
	MaxHeaderBytes    = 64 << 10
)

// NewServer is the http.Server cmd/serve runs: h with the timeouts above.
func NewServer(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: ReadHeaderTimeout, ReadTimeout: ReadTimeout,
		WriteTimeout: WriteTimeout, IdleTimeout: IdleTimeout, MaxHeaderBytes: MaxHeaderBytes}
}

// accepts reports whether Accept-Encoding lists coding with a non-zero q.
func accepts(r *http.Request, coding string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		fields := strings.Split(part, ";")
		if !strings.EqualFold(strings.TrimSpace(fields[0]), coding) {
			continue
		}
		for _, p := range fields[1:] {
			k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
			if strings.TrimSpace(k) == "q" {
				q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				return err == nil && q > 0
			}
		}
		return true
	}
	return false
}

func init() {
	// Some systems map .js or .wasm oddly in /etc/mime.types; the handler
	// sets its own types, but keep the package-level table right too for
	// anything else that uses it.
	_ = mime.AddExtensionType(".wasm", "application/wasm")
}
