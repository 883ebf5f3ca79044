package interop

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"schedplay/scenarios"
	"schedplay/sim"
)

// realMachine is the published layout of a machine whose `lscpu -p` is in
// testdata: the online CPUs and, per CPU (kernel numbers), its SMT
// siblings, the CPUs sharing its LLC (the kernel's LLC mask, cut at the
// node) and the CPUs of its node.
type realMachine struct {
	file     string
	online   []int
	core     func(c int) int // CPUs with equal values are siblings
	llc      func(c int) int
	node     func(c int) int
	numa     int      // NUMA domain levels expected (lscpu: 1 when nodes > 1)
	problems []string // substrings of the notes expected
}

func seq(lo, hi int) []int {
	var out []int
	for c := lo; c <= hi; c++ {
		out = append(out, c)
	}
	return out
}

var realMachines = []realMachine{
	// 2 x Xeon E5-2690 v3 (12 cores, HT): cpu0's sibling is cpu24; a node per socket.
	{file: "lscpu-xeon-2s.txt", online: seq(0, 47), core: func(c int) int { return c % 24 },
		llc: func(c int) int { return c % 24 / 12 }, node: func(c int) int { return c % 24 / 12 }, numa: 1,
		problems: []string{"lscpu does not print node distances"}},
	// Core i7-8550U: 4 cores, HT, siblings 4 apart.
	{file: "lscpu-laptop.txt", online: seq(0, 7), core: func(c int) int { return c % 4 },
		llc: func(int) int { return 0 }, node: func(int) int { return 0 }},
	// Ryzen 7 1700: two CCXs of 4 cores with their own L3, siblings adjacent.
	{file: "lscpu-ryzen-parse.txt", online: seq(0, 15), core: func(c int) int { return c / 2 },
		llc: func(c int) int { return c / 8 }, node: func(int) int { return 0 }},
	// Core i7-1260P: 4 P-cores with HT, 8 E-cores in two L2 clusters, one L3.
	{file: "lscpu-hybrid.txt", online: seq(0, 15), core: func(c int) int {
		if c < 8 {
			return c / 2
		}
		return c - 4
	},
		llc: func(int) int { return 0 }, node: func(int) int { return 0 }},
	// 2 x EPYC 7451 in NPS4: 8 nodes (a die each, 6 cores), 16 CCXs of 3 cores
	// with their own L3, thread 1 of core k is cpu k+48.
	{file: "lscpu-epyc7451-2s-nps4.txt", online: seq(0, 95), core: func(c int) int { return c % 48 },
		llc: func(c int) int { return c % 48 / 3 }, node: func(c int) int { return c % 48 / 6 }, numa: 1},
	// 4 x Xeon E5-4620: 8 cores with HT a socket, a node per socket.
	{file: "lscpu-xeon-e5-4620-4s.txt", online: seq(0, 63), core: func(c int) int { return c % 32 },
		llc: func(c int) int { return c % 32 / 8 }, node: func(c int) int { return c % 32 / 8 }, numa: 1},
	// Xeon Gold 6148 with SNC2: one L3 for the socket, cut at the two nodes
	// (cores 0-4 and 10-14 on node 0), as topology_sane() makes the LLC mask.
	{file: "lscpu-xeon-6148-snc2.txt", online: seq(0, 39), core: func(c int) int { return c % 20 },
		llc: func(c int) int { return snc(c % 20) }, node: func(c int) int { return snc(c % 20) }, numa: 1},
	// POWER9 AC922: 2 x 16 cores SMT4 (threads adjacent), nodes 0 and 8,
	// L3 shared by a core pair.
	{file: "lscpu-power9-ac922-smt4.txt", online: seq(0, 127), core: func(c int) int { return c / 4 },
		llc: func(c int) int { return c / 8 }, node: func(c int) int { return c / 64 }, numa: 1},
	// POWER8 S822L at SMT4 of 8: threads 4-7 of each core are offline.
	{file: "lscpu-power8-smt4-of-8.txt", online: power8Online(), core: func(c int) int { return c / 8 },
		llc: func(c int) int { return c / 8 }, node: func(c int) int { return c / 80 }, numa: 1},
	// z15 LPAR: 12 cores SMT2, three chips (sockets) a drawer; the MC
	// level is the chip; no NUMA.
	{file: "lscpu-s390-z15-drawers.txt", online: seq(0, 23), core: func(c int) int { return c / 2 },
		llc: func(c int) int { return c / 4 }, node: func(int) int { return 0 },
		problems: []string{"books/drawers (s390)"}},
	// RK3399: 4 x A53 and 2 x A72, an L2 per cluster and no L3.
	{file: "lscpu-rk3399-biglittle.txt", online: seq(0, 5), core: func(c int) int { return c },
		llc: func(c int) int { return c / 4 }, node: func(int) int { return 0 },
		problems: []string{"asymmetric capacities (big.LITTLE, hybrid) are not modelled", "1416.0000 MHz on CPUs 0-3; 1800.0000 MHz on CPUs 4-5"}},
	// Kunpeng 920-4826 x2: 4 nodes of 24 cores with their own L3, clusters of 4.
	{file: "lscpu-kunpeng920-2s.txt", online: seq(0, 95), core: func(c int) int { return c },
		llc: func(c int) int { return c / 24 }, node: func(c int) int { return c / 24 }, numa: 1},
	// i5-8250U with cpu2 and cpu6 offline: cpu3's sibling cpu7 stays, cpu2's core
	// keeps no thread.
	{file: "lscpu-laptop-offline.txt", online: []int{0, 1, 3, 4, 5, 7}, core: func(c int) int { return c % 4 },
		llc: func(int) int { return 0 }, node: func(int) int { return 0 },
		problems: []string{"CPUs 2,6 are offline", "the online CPUs keep their numbers"}},
}

func snc(core int) int {
	if core%10 < 5 {
		return 0
	}
	return 1
}

func power8Online() []int {
	var out []int
	for core := range 20 {
		out = append(out, seq(core*8, core*8+3)...)
	}
	return out
}

// mates returns, for every simulated CPU, the kernel numbers of the CPUs in
// its mask.
func mates(topo *sim.Topology, masks []sim.CPUMask, cpu int) []int {
	var out []int
	for c := masks[cpu].First(); c >= 0; c = masks[cpu].Next(c) {
		out = append(out, topo.Label(c))
	}
	return out
}

func expected(online []int, f func(int) int, c int) []int {
	var out []int
	for _, o := range online {
		if f(o) == f(c) {
			out = append(out, o)
		}
	}
	return out
}

// TestLscpuExactMachines imports a dozen real machines' lscpu -p: the
// scenario has the same online CPUs (same numbers), and every CPU the same
// SMT siblings, LLC mates and node mates as the machine, with no
// approximation; the simulator builds one NUMA level.
func TestLscpuExactMachines(t *testing.T) {
	for _, rm := range realMachines {
		t.Run(rm.file, func(t *testing.T) {
			s, probs, err := LscpuScenario(readTestdata(t, rm.file))
			if err != nil {
				t.Fatal(err)
			}
			text := string(problemText(probs))
			if strings.Contains(text, "closest regular") || strings.Contains(text, "where the input has") {
				t.Errorf("approximated:\n%s", text)
			}
			for _, p := range rm.problems {
				if !strings.Contains(text, p) {
					t.Errorf("no note %q in\n%s", p, text)
				}
			}
			cfg, err := s.Config()
			if err != nil {
				t.Fatal(err)
			}
			topo, err := sim.NewTopology(&cfg.Machine)
			if err != nil {
				t.Fatal(err)
			}
			if topo.NCPU != len(rm.online) {
				t.Fatalf("%d CPUs, want %d online", topo.NCPU, len(rm.online))
			}
			for i := range topo.NCPU {
				c := topo.Label(i)
				if c != rm.online[i] {
					t.Fatalf("simulated cpu %d is the kernel's cpu%d, want %d", i, c, rm.online[i])
				}
				for _, k := range []struct {
					what  string
					masks []sim.CPUMask
					f     func(int) int
				}{{"SMT siblings", topo.SMT, rm.core}, {"LLC", topo.LLC, rm.llc}, {"node", topo.Node, rm.node}} {
					if got, want := mates(topo, k.masks, i), expected(rm.online, k.f, c); !slices.Equal(got, want) {
						t.Errorf("cpu%d %s %v, want %v", c, k.what, got, want)
					}
				}
			}
			sm, err := sim.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			numa := 0
			for _, d := range sm.Domains(0) {
				if d.Level == sim.LevelNUMA {
					numa++
				}
			}
			if numa != rm.numa {
				t.Errorf("%d NUMA levels, want %d", numa, rm.numa)
			}
		})
	}
}

// sysfsTree builds a fake /sys of an EPYC 7451 pair in NPS4 mode (8 nodes,
// SLIT 10 / 16 within a socket / 32 across, as AMD documents for NPS4),
// cores per package numbered from 0 as the kernel does, CPU 95 offline.
func sysfsTree() fstest.MapFS {
	fsys := fstest.MapFS{}
	file := func(name, v string) { fsys[name] = &fstest.MapFile{Data: []byte(v + "\n")} }
	file("devices/system/cpu/online", "0-94")
	file("devices/system/cpu/present", "0-95")
	for c := range 96 {
		core := c % 48
		dir := fmt.Sprintf("devices/system/cpu/cpu%d", c)
		file(dir+"/topology/core_id", fmt.Sprint(core%24))
		file(dir+"/topology/physical_package_id", fmt.Sprint(core/24))
		for i, lv := range []struct{ level, typ, id string }{{"1", "Data", fmt.Sprint(core)}, {"1", "Instruction", fmt.Sprint(core)},
			{"2", "Unified", fmt.Sprint(core)}, {"3", "Unified", fmt.Sprint(core / 3)}} {
			idx := fmt.Sprintf("%s/cache/index%d", dir, i)
			file(idx+"/level", lv.level)
			file(idx+"/type", lv.typ)
			file(idx+"/id", lv.id)
		}
	}
	for n := range 8 {
		dir := fmt.Sprintf("devices/system/node/node%d", n)
		file(dir+"/cpulist", fmt.Sprintf("%d-%d,%d-%d", n*6, n*6+5, 48+n*6, 48+n*6+5))
		var row []string
		for m := range 8 {
			switch {
			case m == n:
				row = append(row, "10")
			case m/4 == n/4:
				row = append(row, "16")
			default:
				row = append(row, "32")
			}
		}
		file(dir+"/distance", strings.Join(row, " "))
	}
	return fsys
}

// TestSysfsEPYC: the sysfs import has the distance table, so the
// simulator builds the kernel's two NUMA levels (the socket at 16, the
// machine at 32), and the top one has no WAKE_AFFINE (32 > RECLAIM_DISTANCE).
func TestSysfsEPYC(t *testing.T) {
	s, probs, err := SysfsScenario(sysfsTree(), "test")
	if err != nil {
		t.Fatal(err)
	}
	text := string(problemText(probs))
	if !strings.Contains(text, "CPUs 95 are offline") || strings.Contains(text, "node distances") {
		t.Errorf("notes:\n%s", text)
	}
	if got := strings.Join(s.Machine.NUMADistance, "/"); !strings.HasPrefix(got, "10 16 16 16 32 32 32 32/16 10 16 16 32") {
		t.Errorf("distance table %s", got)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var levels []string
	for _, d := range sm.Domains(0) {
		levels = append(levels, fmt.Sprintf("%s:%d", d.Level, d.Weight))
		if d.Level == sim.LevelNUMA && d.Weight == 95 && d.HasFlag(sim.SDWakeAffine) {
			t.Errorf("the NUMA level at distance 32 has WAKE_AFFINE")
		}
	}
	if got, want := strings.Join(levels, " "), "SMT:2 MC:6 PKG:12 NUMA:48 NUMA:95"; got != want {
		t.Errorf("cpu0's domains %s, want %s", got, want)
	}
	// The same machine from its lscpu -p (which has no distances): the same
	// sharing per CPU.
	ls, _, err := LscpuScenario(readTestdata(t, "lscpu-epyc7451-2s-nps4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	lcfg, _ := ls.Config()
	a, _ := sim.NewTopology(&cfg.Machine)
	b, _ := sim.NewTopology(&lcfg.Machine)
	for i := range a.NCPU {
		for _, m := range [][2][]sim.CPUMask{{a.SMT, b.SMT}, {a.LLC, b.LLC}, {a.Node, b.Node}} {
			gb := slices.DeleteFunc(mates(b, m[1], i), func(c int) bool { return c == 95 }) // offline in the sysfs tree
			if ga := mates(a, m[0], i); !slices.Equal(ga, gb) {
				t.Fatalf("cpu%d: sysfs %v, lscpu %v", i, ga, gb)
			}
		}
	}
}

// TestSysfsThisMachine imports this machine's /sys and, where lscpu is
// installed, compares the sharing per CPU with its lscpu -p.
func TestSysfsThisMachine(t *testing.T) {
	s, _, err := SysfsScenario(osDirFS("/sys"), "/sys")
	if err != nil {
		t.Skipf("no sysfs here: %v", err)
	}
	if _, err := s.Config(); err != nil {
		t.Fatal(err)
	}
	out, err := runLscpu()
	if err != nil {
		t.Skipf("lscpu: %v", err)
	}
	ls, _, err := LscpuScenario(out)
	if err != nil {
		t.Fatal(err)
	}
	var ids func(m scenarios.Machine) []int = func(m scenarios.Machine) []int {
		var out []int
		for _, c := range m.CPUs {
			out = append(out, *c.CPU)
		}
		return out
	}
	if !slices.Equal(ids(s.Machine), ids(ls.Machine)) {
		t.Fatalf("sysfs CPUs %v, lscpu %v", ids(s.Machine), ids(ls.Machine))
	}
	// The same SMT siblings, LLC and node mates per CPU.
	cs, _ := s.Config()
	cl, _ := ls.Config()
	a, _ := sim.NewTopology(&cs.Machine)
	b, _ := sim.NewTopology(&cl.Machine)
	for i := range a.NCPU {
		for _, m := range [][2][]sim.CPUMask{{a.SMT, b.SMT}, {a.LLC, b.LLC}, {a.Node, b.Node}} {
			if ga, gb := mates(a, m[0], i), mates(b, m[1], i); !slices.Equal(ga, gb) {
				t.Errorf("cpu%d: sysfs %v, lscpu %v", a.Label(i), ga, gb)
			}
		}
	}
}

// A tree that is not sysfs, or one that says what no machine does, is an
// error naming the file; nothing is sized by its numbers.
func TestSysfsRefuses(t *testing.T) {
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{"x": "y"}, "not a sysfs tree"},
		{map[string]string{"devices/system/cpu/online": "0-3,x"}, "devices/system/cpu/online"},
		{map[string]string{"devices/system/cpu/online": "0-8191"}, "the simulator has at most 256"},
		{map[string]string{"devices/system/cpu/online": "0-99999999"}, "devices/system/cpu/online"},
		{map[string]string{"devices/system/cpu/online": "0", "devices/system/cpu/cpu0/topology/core_id": "a"}, "core_id"},
	} {
		fsys := fstest.MapFS{}
		for k, v := range c.files {
			fsys[k] = &fstest.MapFile{Data: []byte(v)}
		}
		_, _, err := ImportSysfs(fsys)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.files, err, c.want)
		}
	}
}

// Exports of a machine with offline CPUs name the online ones by the
// kernel's numbers: the laptop without cpu2 and cpu6 has schedstat lines
// cpu0 1 3 4 5 7, cpu0's SMT domain is {0,4} (mask 11) and its MC domain
// the six online CPUs (bb).
func TestExportsUseKernelNumbers(t *testing.T) {
	s, _, err := LscpuScenario(readTestdata(t, "lscpu-laptop-offline.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("duration", "20ms"); err != nil {
		t.Fatal(err)
	}
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sm.RunUntil(cfg.Duration)
	var b strings.Builder
	if err := WriteSchedstat(&b, sm); err != nil {
		t.Fatal(err)
	}
	var cpus []string
	for _, l := range strings.Split(b.String(), "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasPrefix(f[0], "cpu") {
			cpus = append(cpus, f[0])
		}
	}
	if got := strings.Join(cpus, " "); got != "cpu0 cpu1 cpu3 cpu4 cpu5 cpu7" {
		t.Errorf("schedstat CPUs %s", got)
	}
	if !strings.Contains(b.String(), "domain0 SMT 11 ") || !strings.Contains(b.String(), "domain1 MC bb ") {
		t.Errorf("cpu0's domains:\n%s", b.String()[:min(400, b.Len())])
	}
	var c strings.Builder
	if err := WriteCSV(&c, sm, Options{Interval: 10e6}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.String(), ",cpu,7,nr_running,") || strings.Contains(c.String(), ",cpu,5,nr_running,") == false || strings.Contains(c.String(), ",cpu,2,") {
		t.Errorf("csv CPU ids: %s", c.String()[:min(300, c.Len())])
	}
}
