package interop

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// parsedSchedstat is /proc/schedstat read back with the field counts the
// kernel's documentation (Documentation/scheduler/sched-stats.rst) gives per
// version: cpu lines have 9 numbers; domain lines a mask and 36 numbers in
// v15, a name, a mask and 45 numbers in v17.
type parsedSchedstat struct {
	version   int
	timestamp int64
	cpus      [][]uint64
	domains   [][]schedstatDomain // per CPU
}

type schedstatDomain struct {
	name, mask string
	fields     []uint64
}

func parseSchedstat(text string) ([]parsedSchedstat, error) {
	var out []parsedSchedstat
	var cur *parsedSchedstat
	nums := func(fs []string) ([]uint64, error) {
		var v []uint64
		for _, f := range fs {
			n, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				return nil, err
			}
			v = append(v, n)
		}
		return v, nil
	}
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			return nil, fmt.Errorf("line %d is empty", i+1)
		}
		switch {
		case f[0] == "version":
			v, err := strconv.Atoi(f[1])
			if err != nil || len(f) != 2 {
				return nil, fmt.Errorf("line %d: %q", i+1, line)
			}
			out = append(out, parsedSchedstat{version: v})
			cur = &out[len(out)-1]
		case cur == nil:
			return nil, fmt.Errorf("line %d before a version line", i+1)
		case f[0] == "timestamp":
			ts, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil || len(f) != 2 || len(cur.cpus) > 0 {
				return nil, fmt.Errorf("line %d: %q", i+1, line)
			}
			cur.timestamp = ts
		case strings.HasPrefix(f[0], "cpu"):
			if f[0] != "cpu"+strconv.Itoa(len(cur.cpus)) || len(f) != 10 {
				return nil, fmt.Errorf("line %d: want cpu%d and 9 numbers: %q", i+1, len(cur.cpus), line)
			}
			v, err := nums(f[1:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			cur.cpus = append(cur.cpus, v)
			cur.domains = append(cur.domains, nil)
		case strings.HasPrefix(f[0], "domain"):
			c := len(cur.cpus) - 1
			if c < 0 || f[0] != "domain"+strconv.Itoa(len(cur.domains[c])) {
				return nil, fmt.Errorf("line %d: %q out of order", i+1, f[0])
			}
			d := schedstatDomain{}
			rest := f[1:]
			want := 36
			if cur.version >= 17 {
				d.name, rest, want = rest[0], rest[1:], 45
			}
			d.mask = rest[0]
			if len(rest)-1 != want {
				return nil, fmt.Errorf("line %d: %d numbers after the mask, version %d has %d", i+1, len(rest)-1, cur.version, want)
			}
			v, err := nums(rest[1:])
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			d.fields = v
			cur.domains[c] = append(cur.domains[c], d)
		default:
			return nil, fmt.Errorf("line %d: unknown %q", i+1, f[0])
		}
	}
	return out, nil
}

func TestSchedstatParsesBackAndMatchesTheSim(t *testing.T) {
	for _, base := range []string{"v3.8", "v6.17"} {
		t.Run(base, func(t *testing.T) {
			s := newSim(t, "testdata/export-small.json", "duration=500ms", "policy.base="+base)
			s.Run()
			var b bytes.Buffer
			if err := WriteSchedstat(&b, s); err != nil {
				t.Fatal(err)
			}
			snaps, err := parseSchedstat(b.String())
			if err != nil {
				t.Fatalf("%v\n%s", err, b.String())
			}
			if len(snaps) != 1 {
				t.Fatalf("%d snapshots", len(snaps))
			}
			p := snaps[0]
			wantV := map[string]int{"v3.8": 15, "v6.17": 17}[base]
			if p.version != wantV || p.version != SchedstatVersion(s) {
				t.Fatalf("version %d, want %d", p.version, wantV)
			}
			if p.timestamp != s.Jiffies() || p.timestamp != 500 {
				t.Errorf("timestamp %d, want %d jiffies", p.timestamp, s.Jiffies())
			}
			ncpu := s.Topology().NCPU
			if len(p.cpus) != ncpu {
				t.Fatalf("%d cpu lines for %d CPUs", len(p.cpus), ncpu)
			}
			// rq_cpu_time (field 7) adds up to the tasks' CPU time.
			var runNS uint64
			for c, f := range p.cpus {
				st := s.CPUStats(c)
				runNS += f[6]
				if f[1] != 0 || f[2] != uint64(st.SchedCount) || f[4] != uint64(st.TTWUCount) || f[7] != uint64(st.RunDelay) || f[8] != uint64(st.Pcount) {
					t.Errorf("cpu%d line %v does not match %+v", c, f, st)
				}
			}
			var cpuMS float64
			for _, tm := range s.Metrics().Tasks {
				cpuMS += tm.CPUMS
			}
			if d := float64(runNS)/1e6 - cpuMS; d > 0.01 || d < -0.01 {
				t.Errorf("rq_cpu_time adds up to %.3f ms, the tasks ran %.3f ms", float64(runNS)/1e6, cpuMS)
			}
			// Domain lines: one per domain, mask and name from the sim, and
			// each idle type's counters where the version puts them.
			per := 8
			if wantV == 17 {
				per = 11
			}
			var lbTotal uint64
			for c := range ncpu {
				sds := s.Domains(c)
				if len(p.domains[c]) != len(sds) {
					t.Fatalf("cpu%d: %d domain lines, %d domains", c, len(p.domains[c]), len(sds))
				}
				for i, sd := range sds {
					d := p.domains[c][i]
					if d.mask != sd.Span.HexString(ncpu) {
						t.Errorf("cpu%d domain%d mask %q, span %s", c, i, d.mask, sd.Span)
					}
					if wantV == 17 && d.name != sd.Level.String() {
						t.Errorf("cpu%d domain%d name %q, want %s", c, i, d.name, sd.Level)
					}
					// v15: idle, busy, newly idle; v17: busy, idle, newly idle.
					order := []int{0, 1, 2}
					if wantV == 17 {
						order = []int{1, 0, 2}
					}
					for k, it := range order {
						lb := sd.Stats.LB[it]
						blk := d.fields[k*per : (k+1)*per]
						if blk[0] != uint64(lb.Count) || blk[1] != uint64(lb.Balanced) || blk[2] != uint64(lb.Failed) {
							t.Errorf("cpu%d domain%d block %d = %v, want the counters of idle type %d: %+v", c, i, k, blk, it, lb)
						}
						lbTotal += blk[0]
					}
					tail := d.fields[3*per:]
					if tail[9] != uint64(sd.Stats.TTWUWakeRemote) || tail[10] != uint64(sd.Stats.TTWUMoveAffine) || tail[0] != uint64(sd.Stats.ALBCount) {
						t.Errorf("cpu%d domain%d tail %v, stats %+v", c, i, tail, sd.Stats)
					}
				}
			}
			if lbTotal == 0 {
				t.Error("no load-balance pass counted: the fixture is meant to balance")
			}
		})
	}
}

// Version 17 keeps busy balancing first: a CPU that is busy all the time
// balances only as CPU_NOT_IDLE, so only the first block may be non-zero.
func TestSchedstatV17IdleOrder(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=300ms", "policy.base=v6.17",
		"tasks.hog.count=4", "tasks.hog.program=[{\"run\":\"1s\"}]", "tasks.ping.cpus=0", "tasks.pong.cpus=0")
	s.Run()
	var b bytes.Buffer
	WriteSchedstat(&b, s)
	p, err := parseSchedstat(b.String())
	if err != nil {
		t.Fatal(err)
	}
	var busy, idle uint64
	for c := 1; c < len(p[0].cpus); c++ {
		for _, d := range p[0].domains[c] {
			busy += d.fields[0]
			idle += d.fields[11]
		}
	}
	if busy == 0 || idle != 0 {
		t.Errorf("always-busy CPUs: busy lb_count %d (first block), idle %d (second block)", busy, idle)
	}
}

func TestSchedstatSeriesAndGolden(t *testing.T) {
	for _, base := range []string{"v3.8", "v6.17"} {
		s := newSim(t, "testdata/export-small.json", "policy.base="+base)
		var b bytes.Buffer
		if err := WriteSchedstatSeries(&b, s, Options{Interval: 10_000_000}); err != nil {
			t.Fatal(err)
		}
		snaps, err := parseSchedstat(b.String())
		if err != nil {
			t.Fatal(err)
		}
		// 40 ms every 10 ms: at 0, 10, 20, 30 and 40 ms.
		if len(snaps) != 5 {
			t.Fatalf("%s: %d snapshots, want 5", base, len(snaps))
		}
		for i, sn := range snaps {
			if want := int64(i * 10); sn.timestamp != want {
				t.Errorf("%s: snapshot %d at jiffy %d, want %d", base, i, sn.timestamp, want)
			}
			if i > 0 && sn.cpus[0][2] < snaps[i-1].cpus[0][2] {
				t.Errorf("%s: sched_count went down", base)
			}
		}
		golden(t, "export-small-"+base+".schedstat", b.Bytes())
	}
}

// TestSchedstatV9: the v2.6.8 era writes version 9 (schedstat-2.6.8.1):
// 22 + 6 counters per cpu line, 15 + 4 per domain line, and the counters
// match the simulator's: sched_cnt, and pull_task gained summed over CPUs
// equals lost.
func TestSchedstatV9(t *testing.T) {
	s := newSim(t, "testdata/export-small.json", "duration=300ms", "policy.base=v2.6.8",
		"tasks.hog.count=4", "tasks.hog.program=[{\"run\":\"1s\"}]")
	s.Run()
	var b bytes.Buffer
	if err := WriteSchedstat(&b, s); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if lines[0] != "version 9" || !strings.HasPrefix(lines[1], "timestamp ") {
		t.Fatalf("header %q", lines[:2])
	}
	var gained, lost uint64
	cpus := 0
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		switch {
		case strings.HasPrefix(f[0], "cpu"):
			if len(f) != 1+22+6 {
				t.Fatalf("cpu line has %d counters: %q", len(f)-1, l)
			}
			st := s.CPUStats9(cpus)
			if f[7] != strconv.FormatInt(st.SchedCnt, 10) || st.SchedCnt == 0 {
				t.Errorf("cpu%d sched_cnt %s, sim %d", cpus, f[7], st.SchedCnt)
			}
			for it := range 3 {
				g, _ := strconv.ParseUint(f[23+2*it], 10, 64)
				l, _ := strconv.ParseUint(f[24+2*it], 10, 64)
				gained += g
				lost += l
			}
			cpus++
		case strings.HasPrefix(f[0], "domain"):
			if len(f) != 2+15+4 {
				t.Fatalf("domain line has %d counters: %q", len(f)-2, l)
			}
		default:
			t.Fatalf("unexpected line %q", l)
		}
	}
	if cpus != s.Topology().NCPU || gained != lost || gained == 0 {
		t.Errorf("%d cpu lines; pull_task gained %d, lost %d", cpus, gained, lost)
	}
}
