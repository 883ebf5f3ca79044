package interop

import (
	"fmt"
	"strings"
	"testing"

	"schedplay/scenarios"
	"schedplay/sim"
)

func topologyOf(t *testing.T, m scenarios.Machine) *sim.Topology {
	t.Helper()
	num := sim.NumberLinear
	if m.Numbering == "x86" {
		num = sim.NumberX86
	}
	topo, err := sim.NewTopology(&sim.Machine{Nodes: m.Nodes, SocketsPerNode: m.SocketsPerNode, LLCsPerSocket: m.LLCsPerSocket,
		ClustersPerLLC: m.ClustersPerLLC, CoresPerCluster: m.CoresPerCluster, ThreadsPerCore: m.ThreadsPerCore, Numbering: num})
	if err != nil {
		t.Fatal(err)
	}
	return topo
}

// shape prints a machine as NxSxLxCxKxT numbering.
func shape(m scenarios.Machine) string {
	if len(m.CPUs) > 0 {
		return fmt.Sprintf("%d CPUs", len(m.CPUs))
	}
	return fmt.Sprintf("%dx%dx%dx%dx%dx%d %s", m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore, m.Numbering)
}

// For a regular input, every CPU of the scenario's machine has the same
// core, LLC and node mates as in the input: the numbering is exact.
func TestLscpuNumberingIsExact(t *testing.T) {
	for _, f := range []string{"lscpu-xeon-2s.txt", "lscpu-laptop.txt", "lscpu-ryzen-parse.txt"} {
		var probs problems
		cpus, err := parseLscpu(readTestdata(t, f), &probs)
		if err != nil {
			t.Fatal(err)
		}
		m := closestMachine(cpus, &probs)
		num := sim.NumberLinear
		other := sim.NumberX86
		if m.Numbering == "x86" {
			num, other = other, num
		}
		if bad := misplaced(cpus, m, num); bad != 0 {
			t.Errorf("%s: %d CPUs misplaced with %s numbering", f, bad, m.Numbering)
		}
		if bad := misplaced(cpus, m, other); bad == 0 {
			t.Errorf("%s: the other numbering fits too; the comparison proves nothing", f)
		}
	}
}

func TestLscpuGolden(t *testing.T) {
	for _, name := range []string{"lscpu-xeon-2s", "lscpu-laptop", "lscpu-ryzen-parse", "lscpu-hybrid"} {
		t.Run(name, func(t *testing.T) {
			s, probs, err := LscpuScenario(readTestdata(t, name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".scenario.json", indentJSON(t, s))
			golden(t, name+".problems", problemText(probs))
		})
	}
}

func TestLscpuIrregularInputs(t *testing.T) {
	const hdr = "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n"
	cases := []struct {
		name     string
		in       string
		machine  string // NxSxLxCxKxT numbering
		problems []string
	}{
		{"no header", "0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n", "2 CPUs", []string{"line 1: no header line"}},
		{"offline CPUs, lscpu -a with an Online column",
			"# CPU,Core,Socket,Node,Online\n0,0,0,0,Y\n1,1,0,0,Y\n2,0,0,0,Y\n3,1,0,0,N\n4,-,-,-,N\n",
			"3 CPUs", []string{"CPUs 3-4 are offline", "the online CPUs keep their numbers"}},
		{"CPUs missing from the list", hdr + "0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n4,0,0,0,,0,0,0,0\n5,1,0,0,,1,1,1,0\n",
			"4 CPUs", []string{"CPUs 2-3 are not listed"}},
		{"sub-NUMA clustering", hdr + "0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n2,2,0,1,,2,2,2,0\n3,3,0,1,,3,3,3,0\n",
			"4 CPUs", []string{"lscpu does not print node distances"}},
		{"sockets of different sizes", hdr + "0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,1,0\n2,2,1,0,,2,2,2,1\n",
			"3 CPUs", nil},
		{"E-core clusters (shared L2)", hdr + "0,0,0,0,,0,0,0,0\n1,1,0,0,,1,1,0,0\n2,2,0,0,,2,2,1,0\n3,3,0,0,,3,3,1,0\n",
			"4 CPUs", nil},
		{"no caches, user columns", "# CPU,Node,Socket,Core\n0,0,0,0\n1,0,0,1\n", "2 CPUs", []string{"no L2 or L3 cache column"}},
		{"different max frequencies", "# CPU,Core,Socket,Node,L2:L3,MaxMHz\n0,0,0,0,0:0,4700.0000\n1,1,0,0,1:0,3400.0000\n",
			"2 CPUs", []string{"different maximum frequencies"}},
		{"too many CPUs", "# CPU,Core,Socket,Node\n" + manyCPUs(384), "1x1x1x1x256x1 linear", []string{"has 256 CPUs where the input has 384 online (the simulator has at most 256)"}},
		{"bad lines", hdr + "0,0,0,0,,0,0,0,0\n1,1,0\nx,1,0,0,,1,1,1,0\n0,1,0,0,,1,1,1,0\n", "1 CPUs",
			[]string{"line 3: 3 fields where the header has 9", `line 4: "x" is not an id`, "line 5: cpu0 is listed twice"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, probs, err := ImportLscpu([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if got := shape(m); got != tc.machine {
				t.Errorf("machine %s, want %s", got, tc.machine)
			}
			text := string(problemText(probs))
			if len(tc.problems) == 0 && text != "" {
				t.Errorf("unexpected problems:\n%s", text)
			}
			for _, p := range tc.problems {
				if !strings.Contains(text, p) {
					t.Errorf("no problem %q in\n%s", p, text)
				}
			}
			s, _, err := LscpuScenario([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func manyCPUs(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(itoa(i) + "," + itoa(i) + ",0,0\n")
	}
	return b.String()
}

func TestLscpuRefusesWhatIsNotLscpu(t *testing.T) {
	for _, in := range []string{"", "# only comments\n", "Architecture:        x86_64\nCPU(s):              8\n",
		"# CPU,Core,CPU\n0,0,0\n", "# Core,Socket\n0,0\n", "# CPU,Core,Socket,Node,Online\n0,0,0,0,N\n"} {
		if m, _, err := ImportLscpu([]byte(in)); err == nil {
			t.Errorf("%q imported: %+v", in, m)
		}
	}
}
