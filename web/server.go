// Package web is the static page (index.html, loader.js, style.css; the
// build adds wasm_exec.js, main.wasm, main.wasm.gz and main.wasm.br) and the
// handler that serves it, used by cmd/serve and the browser tests.
package web

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
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

// Handler serves the files of dir. main.wasm is served precompressed: from
// main.wasm.br with Content-Encoding: br when the client accepts br, else
// from main.wasm.gz with gzip, when that file is not older than main.wasm
// (make wasm writes them). Browsers advertise br only in secure contexts;
// http://127.0.0.1 gets gzip from Chromium.
func Handler(dir string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
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
		h := w.Header()
		h.Set("Content-Type", ctype)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-cache")
		if path.Ext(name) == ".wasm" {
			h.Add("Vary", "Accept-Encoding")
			for _, enc := range []struct{ coding, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
				pre, ok := fresher(file, enc.ext)
				if !ok || !accepts(r, enc.coding) {
					continue
				}
				f, err := os.Open(pre)
				if err != nil {
					continue
				}
				defer f.Close()
				if st, err := f.Stat(); err == nil {
					h.Set("Content-Encoding", enc.coding)
					http.ServeContent(w, r, name, st.ModTime(), f)
					return
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
		if err != nil || st.IsDir() {
			http.NotFound(w, r)
			return
		}
		http.ServeContent(w, r, name, st.ModTime(), f)
	})
}

// fresher returns file+ext if it exists and is not older than file.
func fresher(file, ext string) (string, bool) {
	pre := file + ext
	pst, err := os.Stat(pre)
	if err != nil {
		return "", false
	}
	if st, err := os.Stat(file); err == nil && st.ModTime().After(pst.ModTime()) {
		return "", false
	}
	return pre, true
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
