package realkernel

import (
	"bufio"
	"io"
	"strconv"

	"schedplay/interop"
)

// WritePerfetto writes a real run's trace as a Chrome trace-event JSON file
// laid out like `schedsim export -format perfetto` (interop.WritePerfetto,
// which drives a simulator and cannot be reused for a recorded trace):
// process 1 is the machine, thread "cpuN" (tid 1000+N) has an "X" slice per
// interval a scenario thread ran there (named after the thread, args tid and
// why it ended: preempted/blocked/running), thread "cpuN events" (tid
// 2000+N) has instants for wake-ups ("wakeup", on the waking CPU) and
// migrations ("migrate", on the destination CPU). Times are microseconds
// from the window's start, with nanoseconds as three decimals; only the
// window is written, so the file opens beside a simulated run's export.
func WritePerfetto(out io.Writer, trace []byte, threads []Thread, win Window, title string) error {
	clk, err := interop.NewFtraceClock(trace)
	if err != nil {
		return err
	}
	names := map[int]string{}
	for _, t := range threads {
		names[t.TID] = t.Name
	}
	bw := bufio.NewWriterSize(out, 256<<10)
	first := true
	line := func(b []byte) {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		bw.Write(b)
	}
	ts := func(b []byte, ns int64) []byte {
		ns -= win.StartNS
		b = strconv.AppendInt(b, ns/1000, 10)
		b = append(b, '.')
		r := ns % 1000
		b = append(b, byte('0'+r/100), byte('0'+r/10%10), byte('0'+r%10))
		return b
	}
	jstr := func(b []byte, s string) []byte { return strconv.AppendQuote(b, s) }
	bw.WriteString(`{"displayTimeUnit":"ns","otherData":{"generator":"schedplay real","title":`)
	bw.Write(jstr(nil, title))
	bw.WriteString(`,"kernel":`)
	bw.Write(jstr(nil, KernelVersion()))
	bw.WriteString(`},"traceEvents":[` + "\n")
	var b []byte
	b = append(b[:0], `{"ph":"M","name":"process_name","pid":1,"args":{"name":`...)
	b = jstr(b, "real kernel: "+title)
	line(append(b, "}}"...))
	ncpu := max(win.NCPU, 1)
	err = interop.ParseFtrace(trace, func(e *interop.FtraceEvent) error {
		ncpu = max(ncpu, e.CPU+1)
		return nil
	})
	if err != nil {
		return err
	}
	for c := 0; c < ncpu; c++ {
		for k, suffix := range []string{"", " events"} {
			tid := 1000 + c + 1000*k
			b = append(b[:0], `{"ph":"M","name":"thread_name","pid":1,"tid":`...)
			b = strconv.AppendInt(b, int64(tid), 10)
			b = append(b, `,"args":{"name":"cpu`...)
			b = strconv.AppendInt(b, int64(c), 10)
			b = append(b, suffix...)
			line(append(b, `"}}`...))
			b = append(b[:0], `{"ph":"M","name":"thread_sort_index","pid":1,"tid":`...)
			b = strconv.AppendInt(b, int64(tid), 10)
			b = append(b, `,"args":{"sort_index":`...)
			b = strconv.AppendInt(b, int64(2*c+k), 10)
			line(append(b, "}}"...))
		}
	}
	type open struct {
		tid   int
		start int64
	}
	cur := make([]open, ncpu)
	for i := range cur {
		cur[i].tid = -1
	}
	closeSlice := func(c int, t int64, why string) {
		o := cur[c]
		if o.tid < 0 {
			return
		}
		b = append(b[:0], `{"ph":"X","pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(1000+c), 10)
		b = append(b, `,"ts":`...)
		b = ts(b, o.start)
		b = append(b, `,"dur":`...)
		b = ts(b, t-o.start+win.StartNS)
		b = append(b, `,"name":`...)
		b = jstr(b, names[o.tid])
		b = append(b, `,"args":{"tid":`...)
		b = strconv.AppendInt(b, int64(o.tid), 10)
		b = append(b, `,"end":"`...)
		b = append(b, why...)
		line(append(b, `"}}`...))
		cur[c].tid = -1
	}
	instant := func(c int, t int64, name string, tid int, extra string) {
		b = append(b[:0], `{"ph":"i","s":"t","pid":1,"tid":`...)
		b = strconv.AppendInt(b, int64(2000+c), 10)
		b = append(b, `,"ts":`...)
		b = ts(b, t)
		b = append(b, `,"name":"`...)
		b = append(b, name...)
		b = append(b, `","args":{"task":`...)
		b = jstr(b, names[tid])
		b = append(b, extra...)
		line(append(b, "}}"...))
	}
	err = interop.ParseFtrace(trace, interop.RepairFtrace(nil, func(e *interop.FtraceEvent) error {
		t := clk.NS(e.TS)
		if t < win.StartNS || t > win.EndNS || e.CPU >= ncpu {
			return nil
		}
		switch e.Kind {
		case interop.FtraceSwitch:
			why := "blocked"
			if e.Preempted() {
				why = "preempted"
			}
			closeSlice(e.CPU, t, why)
			if _, ok := names[e.NextPID]; ok {
				cur[e.CPU] = open{tid: e.NextPID, start: t}
			}
		case interop.FtraceWaking:
			if _, ok := names[e.TPID]; ok {
				instant(e.CPU, t, "wakeup", e.TPID, `,"waker":`+strconv.Quote(e.Comm+"-"+strconv.Itoa(e.PID)))
			}
		case interop.FtraceMigrate:
			if _, ok := names[e.TPID]; ok && e.DestCPU >= 0 && e.DestCPU < ncpu {
				instant(e.DestCPU, t, "migrate", e.TPID, `,"from":`+strconv.Itoa(e.OrigCPU))
			}
		}
		return nil
	}))
	if err != nil {
		return err
	}
	for c := range cur {
		closeSlice(c, win.EndNS, "running")
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
