package scenarios

import (
	"strings"
	"testing"

	"schedplay/sim"
)

// runSync simulates a scenario for its duration and returns ops per task.
func runSync(t *testing.T, js string) map[string]sim.TaskMetrics {
	t.Helper()
	s := mustDecode(t, js)
	cfg, err := s.Config()
	if err != nil {
		t.Fatal(err)
	}
	sm, err := sim.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	sm.RunUntil(cfg.Duration)
	if err := sm.Err(); err != nil {
		t.Fatal(err)
	}
	out := map[string]sim.TaskMetrics{}
	for _, tm := range sm.Metrics().Tasks {
		out[tm.Name] = tm
	}
	return out
}

// Three tasks on four CPUs each hold a mutex for 2 ms and do nothing else:
// the mutex serialises them, so together they complete one hold per 2 ms
// (50 in 100 ms), where without it each would (150). A plain futex mutex
// has no hand-off: the holder unlocks and locks again before the waiter it
// woke runs, so one task keeps it (lock stealing). With 1 ms outside the
// lock, the woken waiter gets it and the holds go round.
func TestSyncMutexSerialises(t *testing.T) {
	const js = `{"version":2,"duration":"100ms","machine":{"cores_per_cluster":4},"tasks":[
	 {"name":"a","count":3,"program":[{"lock":"m"},{"run":"2ms"},{"unlock":"m"}]}]}`
	ops, most := int64(0), int64(0)
	for _, tm := range runSync(t, js) {
		ops += tm.Ops
		most = max(most, tm.Ops)
	}
	if ops < 45 || ops > 50 || most < ops-1 {
		t.Errorf("%d holds in 100 ms (%d by one task), want 45..50 serialised 2 ms holds, all but one by the first holder", ops, most)
	}
	for _, tm := range runSync(t, strings.Replace(js, `{"unlock":"m"}`, `{"unlock":"m"},{"run":"1ms"}`, 1)) {
		if tm.Ops < 10 {
			t.Errorf("with work outside the lock, %s held it %d times: want the holds to go round", tm.Name, tm.Ops)
		}
	}
	free := runSync(t, strings.ReplaceAll(strings.ReplaceAll(js, `{"lock":"m"},`, ""), `,{"unlock":"m"}`, ""))
	if n := free["a/0"].Ops + free["a/1"].Ops + free["a/2"].Ops; n < 140 {
		t.Errorf("without the mutex %d runs, want about 150", n)
	}
}

// A barrier holds the fast task to the pace of the slow one.
func TestSyncBarrier(t *testing.T) {
	m := runSync(t, `{"version":2,"duration":"200ms","machine":{"cores_per_cluster":4},"tasks":[
	 {"name":"fast","program":[{"run":"1ms"},{"barrier":"b"}]},
	 {"name":"slow","program":[{"run":"5ms"},{"barrier":"b"}]}]}`)
	f, s := m["fast/0"].Ops, m["slow/0"].Ops
	if f-s > 1 || s-f > 1 || s < 35 {
		t.Errorf("fast %d, slow %d iterations: want equal, about 40", f, s)
	}
}

// A producer signals a condition under a mutex every 4 ms; two consumers
// wait on it. A signal wakes one consumer, so the two share the
// producer's iterations; with broadcast each consumer gets every one.
func TestSyncCondSignalBroadcast(t *testing.T) {
	const js = `{"version":2,"duration":"400ms","machine":{"cores_per_cluster":4},"tasks":[
	 {"name":"prod","program":[{"run":"1ms"},{"lock":"q"},{"signal":"c"},{"unlock":"q"},{"sleep":"3ms"}]},
	 {"name":"cons","count":2,"program":[{"lock":"q"},{"cond_wait":"c","mutex":"q"},{"unlock":"q"},{"run":"1ms"}]}]}`
	m := runSync(t, js)
	p, c0, c1 := m["prod/0"].Ops, m["cons/0"].Ops, m["cons/1"].Ops
	if c0+c1 < p-2 || c0+c1 > p || c0 < p/3 || c1 < p/3 {
		t.Errorf("signal: producer %d, consumers %d+%d: want the producer's iterations shared", p, c0, c1)
	}
	m = runSync(t, strings.Replace(js, `"signal":"c"`, `"broadcast":"c"`, 1))
	p, c0, c1 = m["prod/0"].Ops, m["cons/0"].Ops, m["cons/1"].Ops
	if c0 < p-2 || c1 < p-2 || c0 > p || c1 > p {
		t.Errorf("broadcast: producer %d, consumers %d and %d: want each about the producer's", p, c0, c1)
	}
}

func TestSyncErrors(t *testing.T) {
	for _, c := range []struct{ js, want string }{
		{`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[{"lock":"x"},{"run":"1ms"},{"signal":"x"}]}]}`,
			`tasks[0].program[2].signal: "x" is a mutex elsewhere`},
		{`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[{"cond_wait":"c"},{"run":"1ms"}]}]}`,
			`tasks[0].program[0].mutex: missing`},
		{`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[{"unlock":"m","mutex":"m"},{"run":"1ms"}]}]}`,
			`tasks[0].program[0].mutex: only a cond_wait step has mutex`},
		{`{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"barrier":"b"},{"run":"1ms"}]}]}`,
			`tasks[0].program[0].barrier: needs "version": 2`},
		{`{"version":2,"duration":"1s","tasks":[{"name":"a","program":[{"barrier":"b b"},{"run":"1ms"}]}]}`,
			`tasks[0].program[0].barrier: "b b" is not a name`},
	} {
		_, err := Decode([]byte(c.js))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.js, err, c.want)
		}
	}
}
