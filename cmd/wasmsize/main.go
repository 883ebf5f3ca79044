// Command wasmsize prints where the bytes of a Go-built WebAssembly module
// go, by package: `go tool nm` does not read wasm, so this reads the module's
// sections itself (the code section's function bodies, named by the "name"
// custom section that the Go linker writes unless -ldflags=-s).
//
//	wasmsize [-n 30] [-depth 0] web/main.wasm
//
// Per package: the raw bytes of its function bodies, and the gzip -9 size of
// those bodies compressed together (an estimate of its share of the download:
// gzip's window is 32 KB, so compressing one package's code alone is close to
// its share in the whole file). The data section (strings, tables, type data,
// embedded files such as fonts) is one line: it carries no names.
// -depth N cuts package paths after N elements (0: whole path), to group
// e.g. everything under github.com/hajimehoshi/ebiten/v2 with -depth 4.
//
//	wasmsize -v8trace v8.txt [-tier TurboFan] [-n 30] [-depth 0] named.wasm
//
// reads instead what V8 compiled, from a browser's log with
// --js-flags=--trace-wasm-compilation-times, and attributes each tier's
// compile time to the module's packages and functions: which code V8's
// tier-up spends the first seconds after a cold load on
// (docs/performance.md, rounds seven and thirty-four). The module must be
// the one the browser ran, built with its names (without -ldflags=-s).
// A file that cannot be read or is not what it should be exits 2.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

func main() {
	n := flag.Int("n", 30, "packages to list (0: all)")
	depth := flag.Int("depth", 0, "cut package paths after this many elements (0: whole path)")
	v8trace := flag.String("v8trace", "", "a browser log with V8's --trace-wasm-compilation-times: compile time by package instead of bytes")
	tier := flag.String("tier", "TurboFan", "with -v8trace: the tier to count (TurboFan, Liftoff)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-n N] [-depth N] [-v8trace log [-tier T]] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	m, err := parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, flag.Arg(0)+":", err)
		os.Exit(2)
	}
	if *v8trace != "" {
		r, err := tierUpFile(m, *v8trace, *tier, *depth)
		if err != nil {
			fmt.Fprintln(os.Stderr, *v8trace+":", err)
			os.Exit(2)
		}
		printTierUp(os.Stdout, r, *tier, *n)
		return
	}
	type agg struct {
		pkg   string
		raw   int
		funcs int
		code  bytes.Buffer
	}
	byPkg := map[string]*agg{}
	for i, body := range m.bodies {
		name := m.names[m.imports+i]
		p := pkgOf(name, *depth)
		a := byPkg[p]
		if a == nil {
			a = &agg{pkg: p}
			byPkg[p] = a
		}
		a.raw += len(body)
		a.funcs++
		a.code.Write(body)
	}
	var all []*agg
	for _, a := range byPkg {
		all = append(all, a)
	}
	sort.Slice(all, func(i, j int) bool {
		return all[i].raw > all[j].raw || all[i].raw == all[j].raw && all[i].pkg < all[j].pkg
	})
	total := len(b)
	fmt.Printf("%s: %d bytes, gzip -9 %d bytes; sections:\n", flag.Arg(0), total, gz(b))
	for _, s := range m.sections {
		fmt.Printf("  %-10s %10d bytes  gzip %9d\n", s.name, len(s.data), gz(s.data))
	}
	fmt.Printf("\n%-60s %6s %10s %10s\n", "package (code section only)", "funcs", "bytes", "gzip alone")
	for i, a := range all {
		if *n > 0 && i == *n {
			rest, restFuncs := 0, 0
			for _, r := range all[i:] {
				rest += r.raw
				restFuncs += r.funcs
			}
			fmt.Printf("%-60s %6d %10d\n", fmt.Sprintf("(%d more packages)", len(all)-i), restFuncs, rest)
			break
		}
		fmt.Printf("%-60s %6d %10d %10d\n", a.pkg, a.funcs, a.raw, gz(a.code.Bytes()))
	}
}

type section struct {
	name string
	data []byte
}

type module struct {
	sections []section
	imports  int            // imported functions (they come first in the function index space)
	bodies   [][]byte       // defined functions' bodies
	names    map[int]string // function index -> name
}

var secNames = []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}

func parse(b []byte) (*module, error) {
	if len(b) < 8 || string(b[:4]) != "\x00asm" {
		return nil, errors.New("not a wasm module")
	}
	m := &module{names: map[int]string{}}
	r := b[8:]
	for len(r) > 0 {
		id := r[0]
		size, n := binary.Uvarint(r[1:])
		if n <= 0 || uint64(len(r)-1-n) < size {
			return nil, errors.New("truncated section")
		}
		data := r[1+n : 1+n+int(size)]
		r = r[1+n+int(size):]
		name := "?"
		if int(id) < len(secNames) {
			name = secNames[id]
		}
		switch id {
		case 0:
			cn, k := readName(data)
			if k <= 0 {
				return nil, errors.New("bad custom section")
			}
			name = "custom:" + cn
			if cn == "name" {
				readNames(data[k:], m.names)
			}
		case 2:
			m.imports = countFuncImports(data)
		case 10:
			cnt, k := binary.Uvarint(data)
			p := data[k:]
			for i := uint64(0); i < cnt; i++ {
				sz, k := binary.Uvarint(p)
				if k <= 0 || uint64(len(p)-k) < sz {
					return nil, errors.New("truncated code section")
				}
				m.bodies = append(m.bodies, p[k:k+int(sz)])
				p = p[k+int(sz):]
			}
		}
		m.sections = append(m.sections, section{name, data})
	}
	return m, nil
}

func readName(b []byte) (string, int) {
	l, n := binary.Uvarint(b)
	if n <= 0 || uint64(len(b)-n) < l {
		return "", -1
	}
	return string(b[n : n+int(l)]), n + int(l)
}

// readNames reads the function-names subsection (id 1) of the name section.
func readNames(b []byte, names map[int]string) {
	for len(b) > 1 {
		id := b[0]
		size, n := binary.Uvarint(b[1:])
		if n <= 0 || uint64(len(b)-1-n) < size {
			return
		}
		sub := b[1+n : 1+n+int(size)]
		b = b[1+n+int(size):]
		if id != 1 {
			continue
		}
		cnt, k := binary.Uvarint(sub)
		sub = sub[k:]
		for i := uint64(0); i < cnt && len(sub) > 0; i++ {
			idx, k := binary.Uvarint(sub)
			sub = sub[k:]
			s, k2 := readName(sub)
			if k2 <= 0 {
				return
			}
			sub = sub[k2:]
			names[int(idx)] = s
		}
	}
}

// countFuncImports counts the imports of kind function (0).
func countFuncImports(b []byte) int {
	cnt, k := binary.Uvarint(b)
	b = b[k:]
	funcs := 0
	for i := uint64(0); i < cnt; i++ {
		for j := 0; j < 2; j++ { // module, field
			_, k := readName(b)
			if k <= 0 {
				return funcs
			}
			b = b[k:]
		}
		kind := b[0]
		b = b[1:]
		switch kind {
		case 0: // func: type index
			_, k := binary.Uvarint(b)
			b = b[k:]
			funcs++
		case 1: // table: reftype, limits
			b = b[1:]
			b = skipLimits(b)
		case 2: // memory: limits
			b = skipLimits(b)
		case 3: // global: valtype, mut
			b = b[2:]
		}
	}
	return funcs
}

func skipLimits(b []byte) []byte {
	flag := b[0]
	b = b[1:]
	_, k := binary.Uvarint(b)
	b = b[k:]
	if flag&1 != 0 {
		_, k = binary.Uvarint(b)
		b = b[k:]
	}
	return b
}

// pkgOf returns the package path of a symbol as the Go linker names it in
// wasm ('/', '-', '*' and parentheses become '_', so go-text reads go/text:
// "schedplay_sim.__Sim_.tick",
// "github.com_hajimehoshi_ebiten_v2.NewImage"), with '/' put back; depth > 0
// keeps that many path elements.
func pkgOf(name string, depth int) string {
	if name == "" {
		return "(unnamed: built with -s?)"
	}
	start := 0
	if i := strings.IndexByte(name, '_'); i > 0 {
		for _, tld := range []string{".com", ".org", ".io", ".net", ".in", ".dev"} {
			if strings.HasSuffix(name[:i], tld) {
				start = i // a domain: the package's '.' comes later
			}
		}
	}
	p := name
	if dot := strings.IndexByte(name[start:], '.'); dot >= 0 {
		p = name[:start+dot]
	}
	p = strings.ReplaceAll(p, "_", "/")
	if depth > 0 {
		if parts := strings.Split(p, "/"); len(parts) > depth {
			p = strings.Join(parts[:depth], "/")
		}
	}
	return p
}

func gz(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
