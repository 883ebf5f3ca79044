// Command serve serves the page in web/ for local use and demos:
//
//	make serve        # builds the wasm, then runs this
//	go run ./cmd/serve -addr 127.0.0.1:8080 -dir web
//
// main.wasm is sent gzip-compressed (from main.wasm.gz) to browsers that
// accept it, with the application/wasm type that streaming compilation needs.
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"schedplay/web"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	dir := flag.String("dir", "web", "directory to serve")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*dir, "main.wasm")); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "serve: %s/main.wasm is missing: run make wasm first\n", *dir)
		os.Exit(1)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatalf("serve: %v", err)
	}
	fmt.Printf("serving %s at http://%s/\n", *dir, ln.Addr())
	srv := &http.Server{Handler: web.Handler(*dir), ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(srv.Serve(ln))
}
