//go:build !js

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/chromedp"

	"schedplay/internal/headless"
)

// The js/wasm test binary under Chromium, the engine the page's simulator
// runs in (web/worker.js); node runs V8 of another release. The binary
// runs in a dedicated Worker, as the page's simulator does, with
// Go's own wasm_exec.js; its stdout and stderr reach this process through
// postMessage. There is no file system: a benchmark that reads files fails
// here (the sim's do not).

// chromiumPage starts the worker and collects what it posts.
const chromiumPage = `<!doctype html><meta charset="utf-8"><title>benchcmp</title><script>
window.bench = {out: "", err: "", code: null};
const w = new Worker("worker.js");
w.onmessage = (e) => {
  const m = e.data;
  if (m.fd === 1) window.bench.out += m.text;
  else if (m.fd === 2) window.bench.err += m.text;
  if (m.code !== undefined) window.bench.code = m.code;
};
w.onerror = (e) => { window.bench.err += "worker: " + e.message + "\n"; window.bench.code = -1; };
w.postMessage(ARGS);
</script>`

// chromiumWorker runs the binary. Go's wasm_exec.js gives the worker a
// file system that can only write, printing through console.log; its
// writes go here instead (its write() calls writeSync too).
const chromiumWorker = `importScripts("wasm_exec.js");
const dec = new TextDecoder();
globalThis.fs.writeSync = (fd, buf) => { postMessage({fd: fd, text: dec.decode(buf)}); return buf.length; };
onmessage = async (e) => {
  const go = new Go();
  go.argv = ["test.wasm"].concat(e.data);
  go.exit = (code) => postMessage({code: code});
  try {
    const r = await WebAssembly.instantiateStreaming(fetch("test.wasm"), go.importObject);
    await go.run(r.instance);
  } catch (err) {
    postMessage({fd: 2, text: String(err) + "\n", code: -1});
  }
};
`

// runInChromium runs the js/wasm test binary bin with args in a fresh
// headless Chromium and returns its standard output; its standard error
// goes to ours.
func runInChromium(bin, wasmExec string, args []string) ([]byte, error) {
	if why := headless.Missing(); why != "" {
		return nil, errors.New(why)
	}
	argv, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, strings.Replace(chromiumPage, "ARGS", string(argv), 1))
	})
	mux.HandleFunc("/worker.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		fmt.Fprint(w, chromiumWorker)
	})
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		http.ServeFile(w, r, wasmExec)
	})
	mux.HandleFunc("/test.wasm", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/wasm")
		http.ServeFile(w, r, bin)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	opts := headless.Options() // the e2e tests' browser
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelCtx := chromedp.NewContext(actx)
	defer cancelCtx()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		return nil, fmt.Errorf("chromium: %v", err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("window.bench.code !== null",
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(30*time.Minute))); err != nil {
		return nil, fmt.Errorf("chromium: waiting for the binary to exit: %v", err)
	}
	type result struct {
		Out, Err string
		Code     int
	}
	res, err := chromedp.Run(ctx, chromedp.Evaluate[result]("window.bench"))
	if err != nil {
		return nil, fmt.Errorf("chromium: %v", err)
	}
	os.Stderr.WriteString(res.Err)
	if res.Code != 0 {
		return []byte(res.Out), fmt.Errorf("%s exited with %d in chromium", filepath.Base(bin), res.Code)
	}
	return []byte(res.Out), nil
}
