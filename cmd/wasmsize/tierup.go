package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"sort"
	"strconv"
)

// A V8 compile of one wasm function, as --trace-wasm-compilation-times
// prints it:
//
//	Compiled function 0x295c009d4e18#621 using TurboFan, took 53309 μs and 649640 / 1471408 max/total bytes; bodysize 2040 codesize 5056 name wasm-function#621
//
// The number after '#' is the function's index in the module's function
// index space (imports first), the one the name section uses.
var v8Compile = regexp.MustCompile(`Compiled function \S*#(\d+) using (\w+), took (\d+) μs .*bodysize (\d+)`)

type v8Compiled struct {
	index    int
	tier     string // "Liftoff", "TurboFan"
	us       int
	bodySize int
}

// readV8Trace reads the compile lines of a V8 trace (anything else in it,
// such as the browser's own log, is skipped).
func readV8Trace(r io.Reader) ([]v8Compiled, error) {
	var out []v8Compiled
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		m := v8Compile.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		var c v8Compiled
		var err error
		if c.index, err = strconv.Atoi(m[1]); err == nil {
			if c.us, err = strconv.Atoi(m[3]); err == nil {
				c.bodySize, err = strconv.Atoi(m[4])
			}
		}
		if err != nil {
			return nil, fmt.Errorf("%q: %v", sc.Text(), err)
		}
		c.tier = m[2]
		out = append(out, c)
	}
	return out, sc.Err()
}

// tierUpReport is one tier's compile time, in total, by package and by
// function (the costliest first).
type tierUpReport struct {
	funcs, us int
	byPkg     []pkgTime
	top       []funcTime
}

type pkgTime struct {
	pkg       string
	funcs, us int
}

type funcTime struct {
	name string
	us   int
	size int
}

// tierUpFile reads the V8 log at path and attributes its compiles of one
// tier to m (tierUp). Its errors leave the path out: the caller prints it.
func tierUpFile(m *module, path, tier string, depth int) (*tierUpReport, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	defer f.Close()
	trace, err := readV8Trace(f)
	if err != nil {
		return nil, err
	}
	return tierUp(m, trace, tier, depth)
}

// tierUp attributes the trace's compiles of one tier to the module's
// functions and their packages. A compile whose body size is not the
// module's for that index means the trace is of another build.
func tierUp(m *module, trace []v8Compiled, tier string, depth int) (*tierUpReport, error) {
	r := &tierUpReport{}
	pkgs := map[string]*pkgTime{}
	for _, c := range trace {
		if c.tier != tier {
			continue
		}
		i := c.index - m.imports
		if i < 0 || i >= len(m.bodies) || len(m.bodies[i]) != c.bodySize {
			return nil, fmt.Errorf("function #%d (body %d bytes in the trace) is not this module's: the trace is of another build", c.index, c.bodySize)
		}
		name := m.names[c.index]
		p := pkgOf(name, depth)
		pt := pkgs[p]
		if pt == nil {
			pt = &pkgTime{pkg: p}
			pkgs[p] = pt
		}
		pt.funcs++
		pt.us += c.us
		r.funcs++
		r.us += c.us
		r.top = append(r.top, funcTime{name, c.us, c.bodySize})
	}
	if r.funcs == 0 {
		seen := map[string]bool{}
		var tiers []string
		for _, c := range trace {
			if !seen[c.tier] {
				seen[c.tier] = true
				tiers = append(tiers, c.tier)
			}
		}
		if len(tiers) == 0 {
			return nil, fmt.Errorf("no compiles in the log: was the browser run with --js-flags=--trace-wasm-compilation-times?")
		}
		return nil, fmt.Errorf("no %s compiles in the log (its tiers: %v)", tier, tiers)
	}
	for _, pt := range pkgs {
		r.byPkg = append(r.byPkg, *pt)
	}
	sort.Slice(r.byPkg, func(i, j int) bool {
		return r.byPkg[i].us > r.byPkg[j].us || r.byPkg[i].us == r.byPkg[j].us && r.byPkg[i].pkg < r.byPkg[j].pkg
	})
	sort.SliceStable(r.top, func(i, j int) bool { return r.top[i].us > r.top[j].us })
	return r, nil
}

func printTierUp(w io.Writer, r *tierUpReport, tier string, n int) {
	fmt.Fprintf(w, "%s: %d compiles, %.1f s of compile time (thread time, as V8 measures it)\n\n", tier, r.funcs, float64(r.us)/1e6)
	fmt.Fprintf(w, "%-60s %6s %10s\n", "package", "funcs", "ms")
	for i, p := range r.byPkg {
		if n > 0 && i == n {
			fmt.Fprintf(w, "(%d more packages)\n", len(r.byPkg)-i)
			break
		}
		fmt.Fprintf(w, "%-60s %6d %10.1f\n", p.pkg, p.funcs, float64(p.us)/1e3)
	}
	fmt.Fprintf(w, "\n%-60s %10s %10s\n", "function", "body B", "ms")
	for i, f := range r.top {
		if n > 0 && i == n {
			break
		}
		fmt.Fprintf(w, "%-60s %10d %10.1f\n", f.name, f.size, float64(f.us)/1e3)
	}
}
