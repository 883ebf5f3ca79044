package interop

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// The ftrace text reader: the kernel's own sched events as tracefs prints
// them (the `trace` file of an instance) or as `trace-cmd report` does.
//
// A tracefs line is
//
//	<comm>-<pid> [(<tgid>)] [<cpu>] [<irq flags>] <timestamp>: <event>: <fields>
//
// where comm may contain spaces and dashes (the pid follows the last '-'
// before the CPU field), the timestamp is seconds with a fraction for the
// nanosecond clocks (local, global, mono, boot: microseconds printed) and a
// bare integer for the counters (x86-tsc, counter). Fields are key=value;
// trace-cmd's sched plugin prints sched_switch and the wake-ups as
// "comm:pid [prio] S ==> comm:pid [prio]" and "comm:pid [prio] CPU:001",
// which are read as well. Reading is one pass over the bytes, line by line:
// time and memory are linear in the input, which is bounded by
// MaxFtraceBytes before anything is read.

// MaxFtraceBytes bounds an ftrace text trace given to ImportFtrace.
const MaxFtraceBytes = 256 << 20

// FtraceKind is the kind of a parsed sched event.
type FtraceKind uint8

const (
	FtraceOther     FtraceKind = iota // an event this reader does not interpret
	FtraceSwitch                      // sched_switch
	FtraceWaking                      // sched_waking (try_to_wake_up() began)
	FtraceWakeup                      // sched_wakeup (the wakee was enqueued)
	FtraceWakeupNew                   // sched_wakeup_new (a forked task was enqueued)
	FtraceMigrate                     // sched_migrate_task
	FtraceFork                        // sched_process_fork
	FtraceExit                        // sched_process_exit
	FtraceMarker                      // a trace_marker write (print / tracing_mark_write)
)

// FtraceEvent is one line of a trace. Comm/PID are the task the event was
// recorded in (the current task of CPU); the other fields depend on Kind.
type FtraceEvent struct {
	Line int   // 1-based line number in the input
	CPU  int   // the CPU the event was recorded on
	TS   int64 // nanoseconds, or the raw counter when RawClock
	// RawClock: the timestamp had no fraction (x86-tsc or counter clock).
	RawClock bool
	Comm     string
	PID      int
	Name     string // the event's name as printed
	Kind     FtraceKind
	// Flags is the irq-info field when the trace has one ("d.h2."): its
	// third character is 'h'/'H' in hard-irq and 's' in soft-irq context.
	Flags string

	// sched_switch
	PrevComm  string
	PrevPID   int
	PrevPrio  int
	PrevState string // "S", "D", "R", "R+", ...
	NextComm  string
	NextPID   int
	NextPrio  int

	// waking, wakeup, wakeup_new, migrate, exit: the task concerned
	TComm     string
	TPID      int
	Prio      int
	TargetCPU int // waking/wakeup: target_cpu
	OrigCPU   int // migrate
	DestCPU   int // migrate

	// fork
	ChildComm string
	ChildPID  int

	// marker
	Text string

	// Inferred: a sched_switch the trace did not have, put back by
	// RepairFtrace (ftrace_repair.go) from the events around it.
	Inferred bool
}

// InIRQ says whether the event was recorded in interrupt context (a timer
// or device wake-up: the current task is not the waker).
func (e *FtraceEvent) InIRQ() bool {
	if len(e.Flags) < 3 {
		return false
	}
	c := e.Flags[2]
	return c == 'h' || c == 'H' || c == 's' || c == 'z' || c == 'Z'
}

// Preempted says whether a sched_switch left its prev task runnable (R or
// R+: preempted or yielding) rather than blocked.
func (e *FtraceEvent) Preempted() bool {
	return strings.HasPrefix(e.PrevState, "R")
}

// ParseFtrace reads a tracefs or trace-cmd text trace and calls fn for every
// event line in order. Comment lines (#) and blank lines are skipped, and so
// are header lines before the first event that do not look like events
// (trace-cmd report starts with "cpus=N" or "version = 6"). A line that does
// not parse is an error naming its line number; so is a sched event whose
// fields are missing. fn's error stops the parse and is returned.
func ParseFtrace(data []byte, fn func(*FtraceEvent) error) error {
	return parseFtrace(data, fn, nil)
}

// parseFtrace is ParseFtrace; tick (when not nil) is called with the
// number of bytes read so far every ftraceTickLines lines.
func parseFtrace(data []byte, fn func(*FtraceEvent) error, tick func(read int)) error {
	if len(data) > MaxFtraceBytes {
		return fmt.Errorf("the trace is %d bytes; at most %d are read", len(data), MaxFtraceBytes)
	}
	seen := false
	var ev FtraceEvent
	size := len(data)
	for lineNo := 1; len(data) > 0; lineNo++ {
		if tick != nil && lineNo%ftraceTickLines == 0 {
			tick(size - len(data))
		}
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		s := strings.TrimSpace(string(line))
		if s == "" || s[0] == '#' {
			continue
		}
		ev = FtraceEvent{Line: lineNo}
		ok, err := parseFtraceLine(s, &ev)
		if err != nil {
			return fmt.Errorf("line %d: %v", lineNo, err)
		}
		if !ok {
			if !seen && lineNo <= 64 && !strings.Contains(s, "]") {
				continue // a header line
			}
			return fmt.Errorf("line %d: not a tracefs or trace-cmd event line (want \"comm-pid [cpu] timestamp: event: fields\"): %.80q", lineNo, s)
		}
		seen = true
		if err := fn(&ev); err != nil {
			return err
		}
	}
	return nil
}

// ftraceTickLines is how often parseFtrace reports its progress.
const ftraceTickLines = 4096

// parseFtraceLine fills ev from one line; ok is false when the line does not
// have the shape of an event line at all.
func parseFtraceLine(s string, ev *FtraceEvent) (ok bool, err error) {
	// The CPU field: the first "[digits]".
	cpuAt := -1
	for i := 0; i < len(s); i++ {
		if s[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(s) && s[j] == ']' {
			cpuAt = i
			break
		}
	}
	if cpuAt < 0 {
		return false, nil
	}
	head := strings.TrimSpace(s[:cpuAt])
	if k := strings.LastIndexByte(head, '('); k >= 0 && strings.HasSuffix(head, ")") {
		head = strings.TrimSpace(head[:k]) // record-tgid's "(tgid)" column
	}
	dash := strings.LastIndexByte(head, '-')
	if dash < 0 {
		return false, nil
	}
	pid, err := strconv.Atoi(head[dash+1:])
	if err != nil || pid < 0 {
		return false, nil
	}
	ev.Comm, ev.PID = head[:dash], pid
	rb := strings.IndexByte(s[cpuAt:], ']') + cpuAt
	ev.CPU, _ = strconv.Atoi(s[cpuAt+1 : rb])
	if ev.CPU > 1<<16 {
		return true, fmt.Errorf("cpu %d is out of range", ev.CPU)
	}
	rest := s[rb+1:]
	// The timestamp: the first token ending in ':' that is a number; the
	// irq-flags field (if any) comes before it.
	var tsTok string
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return false, nil
		}
		sp := strings.IndexAny(rest, " \t")
		tok := rest
		if sp >= 0 {
			tok = rest[:sp]
		}
		rest = rest[len(tok):]
		if strings.HasSuffix(tok, ":") && len(tok) > 1 && tok[0] >= '0' && tok[0] <= '9' {
			tsTok = tok[:len(tok)-1]
			break
		}
		if len(tok) > 16 { // flags fields are short
			return false, nil
		}
		ev.Flags = tok
	}
	if ev.TS, ev.RawClock, err = parseFtraceTS(tsTok); err != nil {
		return true, err
	}
	rest = strings.TrimLeft(rest, " \t")
	colon := strings.IndexByte(rest, ':')
	if colon <= 0 {
		return false, nil
	}
	ev.Name = rest[:colon]
	body := strings.TrimSpace(rest[colon+1:])
	switch ev.Name {
	case "sched_switch":
		ev.Kind = FtraceSwitch
		return true, parseSwitch(body, ev)
	case "sched_waking", "sched_wakeup", "sched_wakeup_new":
		ev.Kind = map[string]FtraceKind{"sched_waking": FtraceWaking, "sched_wakeup": FtraceWakeup, "sched_wakeup_new": FtraceWakeupNew}[ev.Name]
		return true, parseWakeup(body, ev)
	case "sched_migrate_task":
		ev.Kind = FtraceMigrate
		f, err := kvFields(body, "comm", "pid", "prio", "orig_cpu", "dest_cpu")
		if err != nil {
			return true, fmt.Errorf("sched_migrate_task: %v", err)
		}
		ev.TComm = f[0]
		ev.TPID, ev.Prio, ev.OrigCPU, ev.DestCPU, err = atoi4(f[1], f[2], f[3], f[4])
		if err != nil {
			return true, fmt.Errorf("sched_migrate_task: %v", err)
		}
		return true, nil
	case "sched_process_fork":
		ev.Kind = FtraceFork
		f, err := kvFields(body, "comm", "pid", "child_comm", "child_pid")
		if err != nil {
			return true, fmt.Errorf("sched_process_fork: %v", err)
		}
		ev.TComm, ev.ChildComm = f[0], f[2]
		if ev.TPID, err = strconv.Atoi(f[1]); err == nil {
			ev.ChildPID, err = strconv.Atoi(f[3])
		}
		if err != nil {
			return true, fmt.Errorf("sched_process_fork: %v", err)
		}
		return true, nil
	case "sched_process_exit":
		ev.Kind = FtraceExit
		f, err := kvFields(body, "comm", "pid", "prio")
		if err != nil {
			return true, fmt.Errorf("sched_process_exit: %v", err)
		}
		ev.TComm = f[0]
		if ev.TPID, err = strconv.Atoi(f[1]); err != nil {
			return true, fmt.Errorf("sched_process_exit: %v", err)
		}
		ev.Prio, _ = strconv.Atoi(firstField(f[2]))
		return true, nil
	case "tracing_mark_write", "print":
		ev.Kind = FtraceMarker
		ev.Text = body
		return true, nil
	}
	return true, nil
}

// parseFtraceTS reads "12345.678901" (seconds, to ns) or a raw counter.
func parseFtraceTS(t string) (int64, bool, error) {
	sec, frac, dot := strings.Cut(t, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || s < 0 {
		return 0, false, fmt.Errorf("timestamp %q is not a number", t)
	}
	if !dot {
		return s, true, nil
	}
	if frac == "" || len(frac) > 9 {
		return 0, false, fmt.Errorf("timestamp %q: want seconds with 1 to 9 decimals", t)
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil || f < 0 {
		return 0, false, fmt.Errorf("timestamp %q is not a number", t)
	}
	for i := len(frac); i < 9; i++ {
		f *= 10
	}
	if s > (1<<63-1)/1_000_000_000-1 {
		return 0, false, fmt.Errorf("timestamp %q is out of range", t)
	}
	return s*1e9 + f, false, nil
}

func parseSwitch(body string, ev *FtraceEvent) error {
	if strings.Contains(body, "prev_pid=") {
		f, err := kvFields(body, "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid", "next_prio")
		if err != nil {
			return fmt.Errorf("sched_switch: %v", err)
		}
		ev.PrevComm, ev.NextComm = f[0], f[4]
		ev.PrevState = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(f[3]), "==>"))
		ev.PrevPID, ev.PrevPrio, ev.NextPID, ev.NextPrio, err = atoi4(f[1], f[2], f[5], f[6])
		if err != nil {
			return fmt.Errorf("sched_switch: %v", err)
		}
		return nil
	}
	// trace-cmd: "prev:pid [prio] S ==> next:pid [prio]"
	left, right, ok := strings.Cut(body, "==>")
	if !ok {
		return fmt.Errorf("sched_switch: no prev_pid= or ==> in %.80q", body)
	}
	var err error
	lf := strings.Fields(left)
	if len(lf) < 3 {
		return fmt.Errorf("sched_switch: want \"comm:pid [prio] state\" before ==>, got %.80q", left)
	}
	ev.PrevState = lf[len(lf)-1]
	if ev.PrevComm, ev.PrevPID, ev.PrevPrio, err = commPidPrio(strings.Join(lf[:len(lf)-1], " ")); err != nil {
		return fmt.Errorf("sched_switch: %v", err)
	}
	if ev.NextComm, ev.NextPID, ev.NextPrio, err = commPidPrio(strings.TrimSpace(right)); err != nil {
		return fmt.Errorf("sched_switch: %v", err)
	}
	return nil
}

func parseWakeup(body string, ev *FtraceEvent) error {
	if strings.Contains(body, "pid=") {
		f, err := kvFields(body, "comm", "pid", "prio")
		if err != nil {
			return fmt.Errorf("%s: %v", ev.Name, err)
		}
		ev.TComm = f[0]
		if ev.TPID, err = strconv.Atoi(f[1]); err != nil {
			return fmt.Errorf("%s: pid %q is not a number", ev.Name, f[1])
		}
		prio, tail, _ := strings.Cut(f[2], " ")
		ev.Prio, _ = strconv.Atoi(prio)
		ev.TargetCPU = -1
		if _, t, ok := strings.Cut(tail, "target_cpu="); ok {
			ev.TargetCPU, _ = strconv.Atoi(firstField(t))
		}
		return nil
	}
	// trace-cmd: "comm:pid [prio] CPU:001" (older: "success=1 CPU:001")
	ev.TargetCPU = -1
	cut := len(body)
	if i := strings.Index(body, " CPU:"); i >= 0 {
		ev.TargetCPU, _ = strconv.Atoi(firstField(body[i+5:]))
		cut = i
	}
	if i := strings.Index(body[:cut], " success="); i >= 0 {
		cut = i
	}
	var err error
	if ev.TComm, ev.TPID, ev.Prio, err = commPidPrio(strings.TrimSpace(body[:cut])); err != nil {
		return fmt.Errorf("%s: %v", ev.Name, err)
	}
	return nil
}

// commPidPrio reads trace-cmd's "comm:pid [prio]".
func commPidPrio(s string) (string, int, int, error) {
	prio := 0
	if i := strings.LastIndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		prio, _ = strconv.Atoi(s[i+1 : len(s)-1])
		s = strings.TrimSpace(s[:i])
	}
	c := strings.LastIndexByte(s, ':')
	if c < 0 {
		return "", 0, 0, fmt.Errorf("want comm:pid, got %.60q", s)
	}
	pid, err := strconv.Atoi(s[c+1:])
	if err != nil || pid < 0 {
		return "", 0, 0, fmt.Errorf("pid %.20q is not a number", s[c+1:])
	}
	return s[:c], pid, prio, nil
}

// kvFields cuts "k1=v1 k2=v2 ..." at the given keys, in order; a value runs
// up to the space before the next key, so comms with spaces survive.
func kvFields(body string, keys ...string) ([]string, error) {
	out := make([]string, len(keys))
	at := make([]int, len(keys))
	pos := 0
	for i, k := range keys {
		j := -1
		for from := pos; from <= len(body); {
			x := strings.Index(body[from:], k+"=")
			if x < 0 {
				break
			}
			x += from
			if x == 0 || body[x-1] == ' ' {
				j = x
				break
			}
			from = x + 1
		}
		if j < 0 {
			return nil, fmt.Errorf("no %s= field", k)
		}
		at[i] = j
		pos = j + len(k) + 1
	}
	for i, k := range keys {
		start := at[i] + len(k) + 1
		end := len(body)
		if i+1 < len(keys) {
			end = at[i+1]
		}
		out[i] = strings.TrimSpace(body[start:end])
	}
	return out, nil
}

func atoi4(a, b, c, d string) (int, int, int, int, error) {
	var v [4]int
	for i, s := range [4]string{a, b, c, d} {
		n, err := strconv.Atoi(firstField(s))
		if err != nil {
			return 0, 0, 0, 0, fmt.Errorf("%q is not a number", s)
		}
		v[i] = n
	}
	return v[0], v[1], v[2], v[3], nil
}

// firstField is the first whitespace-separated word of s, "" if none.
func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}
