//go:build !js

// Command benchcmp runs the same Go benchmarks in two builds, alternately, and
// prints one ratio per benchmark and metric, so that a speed claim is a
// side-by-side ratio from one run on one machine (a shared machine's load
// shifts both builds alike when their runs alternate).
//
// Two comparisons:
//
//	benchcmp -base <commit> [flags] <packages>   this tree against a baseline commit,
//	                                            checked out as a temporary git worktree
//	benchcmp -wasm [flags] <packages>            the same tree as js/wasm under node against native
//	benchcmp -wasm -engine chromium <packages>   the same in a Worker of headless Chromium (chromium.go)
//
// With -cputime N (with -base, native) it runs TestCPUTimePerEvent instead of
// the benchmarks (N simulators per scenario; the unit cpu-ns/event: the
// simulating thread's CPU time per trace event, far steadier than wall time
// on a loaded machine) and checks that both sides print the same trace hash
// per scenario where both print one: unequal hashes are reported, since then
// the two builds do not simulate the same thing.
//
// Each package's test binary is built once per side (go test -c, with the
// PGO profile the shipped binaries use: -pgo for this tree, the baseline's own
// cmd/schedsim/default.pgo if it has one), then run -count times per side,
// the sides alternating (ABBA: odd rounds start with the new side), one
// benchmark run (-test.count 1) each time.
// Packages the baseline does not have are skipped with a note.
//
// The table gives each side's median and the speed-up of the new side over the
// old one (old/new for times, new/old for rates: > 1 means faster), with the
// range of that ratio over the pairs of runs taken in the same round.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"schedplay/internal/stats"
)

func main() {
	base := flag.String("base", "", "baseline commit (a temporary git worktree of it is the old side)")
	wasm := flag.Bool("wasm", false, "compare this tree as js/wasm under node (new side) against native (old side)")
	engine := flag.String("engine", "node", "with -wasm: run the wasm under node, or in a Worker of headless chromium")
	count := flag.Int("count", 5, "runs per side, alternating")
	bench := flag.String("bench", ".", "benchmark regexp (-test.bench)")
	benchtime := flag.String("benchtime", "", "-test.benchtime (default: go test's)")
	pgo := flag.String("pgo", "", "PGO profile for this tree's test binaries (empty: off)")
	cputime := flag.Int("cputime", 0, "run TestCPUTimePerEvent with this many simulators per scenario instead of the benchmarks (-base only)")
	keep := flag.String("out", "", "directory to keep the raw outputs in (old.txt, new.txt); default: a temporary one")
	flag.Parse()
	if (*base == "") == !*wasm {
		fail(errors.New("give exactly one of -base <commit> and -wasm"))
	}
	pkgs := flag.Args()
	if len(pkgs) == 0 {
		pkgs = []string{"./sim"}
	}
	if *count < 1 {
		fail(errors.New("-count must be at least 1"))
	}
	if *engine != "node" && *engine != "chromium" {
		fail(errors.New("-engine must be node or chromium"))
	}
	if *engine != "node" && !*wasm {
		fail(errors.New("-engine is for -wasm"))
	}
	if *cputime < 0 || *cputime > 0 && *wasm {
		fail(errors.New("-cputime wants a positive count and -base (the CPU-time test is linux-only)"))
	}
	tmp, err := os.MkdirTemp("", "benchcmp")
	if err != nil {
		fail(err)
	}
	cleanups = append(cleanups, func() { os.RemoveAll(tmp) })
	defer cleanup()
	root, err := gitTop(".")
	if err != nil {
		fail(err)
	}
	var oldSide, newSide side
	newSide = side{name: "this tree", root: root, pgo: *pgo}
	if *wasm {
		oldSide = side{name: "native", root: root, pgo: *pgo}
		newSide.name = "wasm (" + *engine + ")"
		newSide.wasm = true
		newSide.engine = *engine
	} else {
		wt := filepath.Join(tmp, "base")
		if out, err := exec.Command("git", "-C", root, "worktree", "add", "--detach", wt, *base).CombinedOutput(); err != nil {
			fail(fmt.Errorf("git worktree add %s: %v\n%s", *base, err, out))
		}
		cleanups = append(cleanups, func() { exec.Command("git", "-C", root, "worktree", "remove", "--force", wt).Run() })
		rev, _ := exec.Command("git", "-C", wt, "rev-parse", "--short", "HEAD").Output()
		oldSide = side{name: "base " + strings.TrimSpace(string(rev)), root: wt}
		if *pgo != "" {
			if p := filepath.Join(wt, "cmd", "schedsim", "default.pgo"); exists(p) {
				oldSide.pgo = p
			}
		}
	}
	fmt.Printf("benchcmp: %s (old) against %s (new), %d alternating runs each, %s, GOMAXPROCS=%d\n",
		oldSide.name, newSide.name, *count, runtime.GOARCH, runtime.GOMAXPROCS(0))
	if oldSide.pgo != "" || newSide.pgo != "" {
		fmt.Printf("PGO: old %q, new %q\n", rel(oldSide.pgo), rel(newSide.pgo))
	}

	var olds, news []string // per package: the binaries
	var dirs [2][]string
	var used []string
	for i, pkg := range pkgs {
		ob, err := oldSide.build(pkg, filepath.Join(tmp, fmt.Sprintf("old%d.test", i)))
		if err != nil {
			fmt.Printf("skip %s: the old side does not build it: %v\n", pkg, firstLine(err.Error()))
			continue
		}
		nb, err := newSide.build(pkg, filepath.Join(tmp, fmt.Sprintf("new%d.test", i)))
		if err != nil {
			fail(fmt.Errorf("%s: %v", pkg, err))
		}
		olds, news = append(olds, ob), append(news, nb)
		dirs[0] = append(dirs[0], filepath.Join(oldSide.root, pkg))
		dirs[1] = append(dirs[1], filepath.Join(newSide.root, pkg))
		used = append(used, pkg)
	}
	args := []string{"-test.run", "^$", "-test.bench", *bench, "-test.benchmem", "-test.count", "1"}
	if *benchtime != "" {
		args = append(args, "-test.benchtime", *benchtime)
	}
	if *cputime > 0 {
		args = []string{"-test.run", "^TestCPUTimePerEvent$", "-test.count", "1"}
		os.Setenv("SCHEDPLAY_CPUTIME", strconv.Itoa(*cputime))
	}
	hashes := [2]map[string]string{{}, {}}
	var rawOld, rawNew bytes.Buffer
	var rounds [2][]results
	for r := 0; r < *count; r++ {
		var ro, rn results = results{}, results{}
		for i, pkg := range used {
			fmt.Fprintf(os.Stderr, "round %d/%d %s\n", r+1, *count, pkg)
			// Odd rounds run the new side first, so a drift of the
			// machine's load within a round favours neither side.
			order := []int{0, 1}
			if r%2 == 1 {
				order = []int{1, 0}
			}
			for _, o := range order {
				sd, bin, buf, res := oldSide, olds[i], &rawOld, ro
				if o == 1 {
					sd, bin, buf, res = newSide, news[i], &rawNew, rn
				}
				out, err := sd.run(bin, dirs[o][i], args)
				if err != nil {
					fail(fmt.Errorf("%s (%s): %v\n%s", pkg, sd.name, err, out))
				}
				buf.Write(out)
				res.parse(pkg, out)
				res.parseCPUTime(pkg, out, hashes[o])
			}
		}
		if len(ro) == 0 && len(rn) == 0 {
			// A filter that matches nothing would print an empty table.
			// From make, a "$|" in BENCH is make's own variable: the
			// regexp 'A$|B$' arrives as 'AB$'.
			fail(fmt.Errorf("no benchmark of %s matched -bench %q (through make, write $$ for each $)", strings.Join(used, " "), *bench))
		}
		rounds[0] = append(rounds[0], ro)
		rounds[1] = append(rounds[1], rn)
	}
	if *keep != "" {
		if err := os.MkdirAll(*keep, 0o755); err != nil {
			fail(err)
		}
		os.WriteFile(filepath.Join(*keep, "old.txt"), rawOld.Bytes(), 0o644)
		os.WriteFile(filepath.Join(*keep, "new.txt"), rawNew.Bytes(), 0o644)
	}
	report(os.Stdout, oldSide.name, newSide.name, rounds)
	if *cputime > 0 {
		fmt.Println(compareHashes(hashes))
	}
}

// parseCPUTime reads TestCPUTimePerEvent's lines, "cputime NAME V ns/event"
// followed (in newer trees) by " (trace HASH, N events)", into the unit
// cpu-ns/event, and the trace hashes into hashes.
func (r results) parseCPUTime(pkg string, out []byte, hashes map[string]string) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[0] != "cputime" || f[3] != "ns/event" {
			continue
		}
		v, err := strconv.ParseFloat(f[2], 64)
		if err != nil {
			continue
		}
		key := strings.TrimPrefix(pkg, "./") + " " + f[1]
		r[key] = map[string]float64{"cpu-ns/event": v}
		if len(f) >= 6 && f[4] == "(trace" {
			hashes[key] = strings.TrimSuffix(f[5], ",")
		}
	}
}

// compareHashes says whether the scenarios both sides printed a trace hash
// for have equal ones.
func compareHashes(h [2]map[string]string) string {
	var same, differ, one []string
	for k, a := range h[0] {
		if b, ok := h[1][k]; !ok {
			one = append(one, k)
		} else if a == b {
			same = append(same, k)
		} else {
			differ = append(differ, fmt.Sprintf("%s (%s vs %s)", k, a, b))
		}
	}
	for k := range h[1] {
		if _, ok := h[0][k]; !ok {
			one = append(one, k)
		}
	}
	sort.Strings(same)
	sort.Strings(differ)
	sort.Strings(one)
	s := "trace hashes: "
	switch {
	case len(differ) > 0:
		s += "DIFFER for " + strings.Join(differ, ", ") + ": those builds do not simulate the same thing"
	case len(same) > 0:
		s += "equal for " + strings.Join(same, ", ")
	case len(one) > 0:
		return s + "not compared: printed by one side only (" + strings.Join(one, ", ") + ")"
	default:
		return s + "printed by neither side"
	}
	if len(one) > 0 {
		s += "; printed by one side only: " + strings.Join(one, ", ")
	}
	return s
}

type side struct {
	name string
	root string // the tree
	pgo  string // profile, or "" for -pgo=off
	wasm bool
	// engine runs a wasm side: "node" (go_js_wasm_exec) or "chromium".
	engine string
}

func (s side) build(pkg, out string) (string, error) {
	pgo := "off"
	if s.pgo != "" {
		pgo = s.pgo
	}
	cmd := exec.Command("go", "test", "-c", "-o", out, "-pgo="+pgo, pkg)
	cmd.Dir = s.root
	cmd.Env = os.Environ()
	if s.wasm {
		cmd.Env = append(cmd.Env, "GOOS=js", "GOARCH=wasm")
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("%v: %s", err, b)
	}
	if !exists(out) {
		return "", fmt.Errorf("%s has no tests", pkg)
	}
	return out, nil
}

func (s side) run(bin, dir string, args []string) ([]byte, error) {
	var cmd *exec.Cmd
	if s.wasm {
		goroot, err := exec.Command("go", "env", "GOROOT").Output()
		if err != nil {
			return nil, err
		}
		lib := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm")
		if s.engine == "chromium" {
			return runInChromium(bin, filepath.Join(lib, "wasm_exec.js"), args)
		}
		cmd = exec.Command(filepath.Join(lib, "go_js_wasm_exec"), append([]string{bin}, args...)...)
	} else {
		cmd = exec.Command(bin, args...)
	}
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	return cmd.Output()
}

// results: package/benchmark -> unit -> value, one run.
type results map[string]map[string]float64

// parse reads go test -bench output: "BenchmarkX-2  N  v unit  v unit ...".
func (r results) parse(pkg string, out []byte) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		name := strings.TrimPrefix(f[0], "Benchmark")
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		key := strings.TrimPrefix(pkg, "./") + " " + name
		m := map[string]float64{}
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				break
			}
			m[f[i+1]] = v
		}
		r[key] = m
	}
}

// higherBetter: rates; everything else (times, bytes, allocations) is better lower.
func higherBetter(unit string) bool {
	return unit == "rtf" || strings.HasSuffix(unit, "/s")
}

func report(w io.Writer, oldName, newName string, rounds [2][]results) {
	keys := map[string]bool{}
	for _, r := range rounds[0] {
		for k := range r {
			keys[k] = true
		}
	}
	var names []string
	for k := range keys {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "\n%-28s %-13s %14s %14s %9s  %s\n", "benchmark", "unit", oldName, newName, "speed-up", "range over rounds")
	for _, k := range names {
		units := map[string]bool{}
		for _, r := range rounds[0] {
			for u := range r[k] {
				units[u] = true
			}
		}
		var us []string
		for u := range units {
			if u == "B/op" || u == "allocs/op" {
				continue // building the machine; allocs/event is the run's
			}
			us = append(us, u)
		}
		sort.Strings(us)
		for _, u := range us {
			var o, n, ratios []float64
			for i := range rounds[0] {
				ov, ok1 := rounds[0][i][k][u]
				nv, ok2 := rounds[1][i][k][u]
				if !ok1 || !ok2 {
					continue
				}
				o, n = append(o, ov), append(n, nv)
				if ov > 0 && nv > 0 {
					if higherBetter(u) {
						ratios = append(ratios, nv/ov)
					} else {
						ratios = append(ratios, ov/nv)
					}
				}
			}
			if len(o) == 0 {
				continue
			}
			mo, mn := stats.Median(o), stats.Median(n)
			sp := "-"
			rng := ""
			if mo > 0 && mn > 0 {
				if higherBetter(u) {
					sp = fmt.Sprintf("%.3f×", mn/mo)
				} else {
					sp = fmt.Sprintf("%.3f×", mo/mn)
				}
				sort.Float64s(ratios)
				rng = fmt.Sprintf("%.3f–%.3f (n=%d)", ratios[0], ratios[len(ratios)-1], len(ratios))
			}
			fmt.Fprintf(w, "%-28s %-13s %14s %14s %9s  %s\n", k, u, num(mo), num(mn), sp, rng)
		}
	}
	fmt.Fprintln(w, "\nspeed-up: old/new for times and counts, new/old for rates (rtf, events/s): > 1 means the new side is faster or smaller.")
}

func num(v float64) string {
	switch a := v; {
	case a >= 1e9:
		return fmt.Sprintf("%.3fG", v/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3fM", v/1e6)
	case a >= 1e4:
		return fmt.Sprintf("%.1fk", v/1e3)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	default:
		return fmt.Sprintf("%.4g", v)
	}
}

func gitTop(dir string) (string, error) {
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--show-toplevel").Output()
	if err != nil {
		return "", fmt.Errorf("not in a git tree: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func rel(p string) string {
	if p == "" {
		return "off"
	}
	return p
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// cleanups run last first, on the way out, also when fail exits.
var cleanups []func()

func cleanup() {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanups = nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchcmp:", err)
	cleanup()
	os.Exit(1)
}
