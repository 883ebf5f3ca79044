// Command serve serves the page in web/ for local use and demos:
//
//	make serve        # builds the wasm, then runs this
//	go run ./cmd/serve -addr 127.0.0.1:8080 -dir web
//
// main.wasm is sent precompressed (main.wasm.br or .gz, when
// main.wasm.sha256 says they were made from it) to browsers that accept
// it, with the application/wasm type that streaming compilation needs.
// Every response carries a Content-Security-Policy whose frame-ancestors
// is 'self' unless -frame-ancestors says who else may embed the page (a
// slide deck: -frame-ancestors "'self' https://slides.example.org").
package main

import (
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"path/filepath"

	"schedplay/web"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	dir := flag.String("dir", "web", "directory to serve")
	frames := flag.String("frame-ancestors", web.DefaultFrameAncestors, "CSP frame-ancestors: who may embed the page in a frame ('self', or e.g. \"'self' https://slides.example.org\", or *)")
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
	srv := web.NewServer(web.HandlerWith(*dir, web.Options{FrameAncestors: *frames}))
	log.Fatal(srv.Serve(ln))
}
