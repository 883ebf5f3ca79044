//go:build js

package main

import (
	"bytes"
	"encoding/json"
	"math"
	"sync"
	"syscall/js"
	"time"

	"schedplay/app"
	"schedplay/cmd/wasm/pagemodel"
	"schedplay/cmd/wasm/wire"
	"schedplay/frame"
	"schedplay/scenarios"
)

// The page's simulator runs in a dedicated worker (web/worker.js starts
// this same module there; main() branches on inWorker). The worker owns
// the app.Session that plays: it applies the page API calls the main
// thread forwards (in order, numbered), ticks the session about 60 times a
// second with a work budget of most of each tick, and posts every frame
// (package wire) to the main thread, which only decodes and draws.
//
// Flow control: at most maxInFlight frames are on their way; the main
// thread acknowledges the frames it decoded when it draws (or after
// front's ackAfter without a drawn frame). A frame that cannot be posted yet
// is merged into the next (moves, log lines and metrics are kept), so a
// busy main thread slows the drawing, not the simulator.

// inWorker: the module runs in a dedicated worker (no document).
func inWorker() bool { return js.Global().Get("WorkerGlobalScope").Truthy() }

const (
	// workerPeriod is the worker's tick: one frame posted per period.
	workerPeriod = 16 * time.Millisecond
	// workerBudget is the simulator's share of a period while playing.
	workerBudget = 13 * time.Millisecond
	// ffBudget is how long a "run to the end" simulates between two
	// frames (a progress report with fresh metrics).
	ffBudget = 60 * time.Millisecond
	// maxInFlight frames posted and not yet acknowledged.
	maxInFlight = 2
)

// opQueue is the calls the main thread posted, in order.
type opQueue struct {
	mu   sync.Mutex
	ops  []js.Value
	wake chan struct{}
}

func (q *opQueue) push(v js.Value) {
	q.mu.Lock()
	q.ops = append(q.ops, v)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *opQueue) take() []js.Value {
	q.mu.Lock()
	defer q.mu.Unlock()
	ops := q.ops
	q.ops = nil
	return ops
}

// simWorker is the worker's state.
type simWorker struct {
	sess     *app.Session
	enc      *wire.Encoder
	applied  uint64
	step     int64 // simulated ns the last step call reached (-1: none since the last post)
	inFlight int
	pending  *frame.Frame // a frame not posted yet (merged into the next)
	ff       bool         // running to the end
	ffDone   bool
	ffStop   string // why a run to the end stopped before the end
	ffStart  time.Time
	ffFrom   int64 // side A's simulated time when the run to the end began
	ffWall   time.Duration
	ffSim    int64
	work     time.Duration
	simNS    int64
	lastRN   revNow // revision and side A's time of the newest frame made

	// jobs (imports, exports) the page cancelled (pageio.go)
	cancelMu sync.Mutex
	cancels  map[float64]bool

	// What prepare sent the page: whether the page acknowledged a frame
	// yet, the preset list, the scenario last described and the revision
	// it last looked at.
	acked       bool
	presetsSent bool
	described   []byte
	seenRev     int64
}

func runWorker() {
	q := &opQueue{wake: make(chan struct{}, 1)}
	// The calls that came before this handler (web/worker.js kept them),
	// then the handler: no event runs in between.
	if early := js.Global().Get("schedplayEarly"); early.Truthy() {
		for i := 0; i < early.Length(); i++ {
			q.push(early.Index(i))
		}
		js.Global().Delete("schedplayEarly")
	}
	js.Global().Set("onmessage", js.FuncOf(func(this js.Value, args []js.Value) any {
		q.push(args[0].Get("data"))
		return nil
	}))
	w := &simWorker{sess: app.NewSession(), enc: wire.NewEncoder(), step: -1, seenRev: -1}
	w.sess.SetBudget(workerBudget)
	js.Global().Call("postMessage", map[string]any{"ready": true})

	var lastTick time.Time
	idle := false // paused, and the paused frame was posted
	for {
		ops := q.take()
		for _, op := range ops {
			w.apply(op)
		}
		if len(ops) > 0 {
			idle = false
		}
		if w.sess.Scenario() == nil || (idle && !w.ff && w.inFlight == 0 && w.pending == nil) {
			// Nothing to simulate: wait for a call (or refresh now and
			// then, for the stats).
			select {
			case <-q.wake:
			case <-time.After(250 * time.Millisecond):
				idle = false
			}
			lastTick = time.Time{}
			continue
		}
		start := time.Now()
		var dt time.Duration
		if !lastTick.IsZero() {
			dt = start.Sub(lastTick)
		}
		lastTick = start
		before := w.lastRN
		var f *frame.Frame
		if w.ff {
			over := w.sess.RunFor(ffBudget)
			f = w.sess.Tick(time.Now(), 0)
			if over {
				w.ff = false
				w.endFF(f, "")
			}
		} else {
			f = w.sess.Tick(start, dt)
		}
		w.work += time.Since(start)
		if f != nil && f.Rev == before.rev {
			w.simNS += f.A().Now - before.now
		}
		w.offer(f)
		w.prepare()
		if f != nil && !f.Playing && !w.ff {
			idle = true
		}
		if el := time.Since(start); !w.ff && el < workerPeriod {
			select {
			case <-q.wake:
				// A call arrived: apply it at once (the next tick
				// accounts the shorter dt).
			case <-time.After(workerPeriod - el):
			}
		} else {
			time.Sleep(0) // let the calls in
			select {
			case <-q.wake:
			case <-time.After(time.Millisecond):
			}
		}
	}
}

type revNow struct {
	rev int64
	now int64
}

// offer posts f, or keeps it (merged with one not posted yet) until the
// main thread acknowledged enough frames.
func (w *simWorker) offer(f *frame.Frame) {
	if f == nil {
		return
	}
	w.lastRN = revNow{f.Rev, f.A().Now}
	if w.pending != nil {
		f = mergeFrames(w.pending, f)
	}
	w.pending = f
	w.flush()
}

func (w *simWorker) flush() {
	if w.pending == nil || w.inFlight >= maxInFlight {
		return
	}
	m := wire.Msg{Applied: w.applied, Step: w.step, Frame: w.pending, FastForward: w.ff, FFDone: w.ffDone, FFStop: w.ffStop,
		WorkMS: float64(w.work) / float64(time.Millisecond), SimNS: w.simNS,
		FFWallMS: float64(w.ffWall) / float64(time.Millisecond), FFSimMS: float64(w.ffSim) / 1e6}
	b, err := w.enc.Encode(m)
	if err != nil {
		js.Global().Call("postMessage", map[string]any{"error": "frame: " + err.Error()})
		return
	}
	arr := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(arr, b)
	js.Global().Call("postMessage", arr, []any{arr.Get("buffer")})
	w.inFlight++
	w.pending = nil
	w.step = -1
	w.ffDone, w.ffStop = false, ""
	w.work, w.simNS = 0, 0
}

// prepare posts what the page's editor reads and the worker can make as
// well: the preset list ({presets}, once) and describe()'s model of the
// scenario loaded ({model, s}, once per scenario). Made on the page's main
// thread, the editor's first build after the first frame was one task of
// 400-800 ms, 160-170 ms of it describe() and 90-120 ms the preset list
// (issue 19). Nothing is prepared before the page acknowledged a frame:
// its Go is up and about to draw, and the two threads no longer compete
// for the page's start (web/loader.js waits up to a second after the
// first frame for what comes); a scenario is described once a frame of it
// went out. The page uses what came if it still shows that scenario, and
// makes it itself otherwise (cmd/wasm/front.go onMessage).
func (w *simWorker) prepare() {
	if !w.acked || w.pending != nil {
		return
	}
	if !w.presetsSent {
		w.presetsSent = true
		if b, err := json.Marshal(pagemodel.Presets()); err == nil {
			js.Global().Call("postMessage", map[string]any{"presets": string(b)})
		}
	}
	// Once per revision (this runs every tick, and the canonical JSON is
	// made, not kept): a restart is a new revision of the same scenario.
	if w.lastRN.rev == w.seenRev {
		return
	}
	w.seenRev = w.lastRN.rev
	cur := w.sess.Scenario()
	if cur == nil || bytes.Equal(cur, w.described) {
		return
	}
	w.described = bytes.Clone(cur)
	if model, err := pagemodel.DescribeJSON(cur); err == nil {
		js.Global().Call("postMessage", map[string]any{"model": string(model), "s": string(cur)})
	}
}

// endFF records the end of a run to the end (f: the frame it ended with,
// nil when another call interrupted it) and posts a status message too
// ({ffDone, wall_ms, sim_ms, stop}: for a worker without a page, e2e).
func (w *simWorker) endFF(f *frame.Frame, stop string) {
	w.ffDone, w.ffStop = true, stop
	w.ffWall = time.Since(w.ffStart)
	now := w.simNow()
	if f != nil {
		now = f.A().Now
	}
	w.ffSim = now - w.ffFrom
	js.Global().Call("postMessage", map[string]any{"ffDone": true, "stop": stop,
		"wall_ms": float64(w.ffWall) / float64(time.Millisecond), "sim_ms": float64(w.ffSim) / 1e6})
}

// simNow is side A's simulated time now (ns, to the µs of Metrics).
func (w *simWorker) simNow() int64 {
	m, ok := w.sess.Metrics()
	if !ok {
		return 0
	}
	return int64(math.Round(m.SimMS * 1e6))
}

// mergeFrames is b carrying what a (the frame before it, never posted)
// had and b does not repeat: moves, log lines, metrics, the last move.
func mergeFrames(a, b *frame.Frame) *frame.Frame {
	if a.Rev != b.Rev || a.AB != b.AB {
		return b
	}
	for i := range b.Sides {
		sa, sb := &a.Sides[i], &b.Sides[i]
		if n := len(sa.Moves) + len(sb.Moves); n > 0 {
			mv := append(sa.Moves[:len(sa.Moves):len(sa.Moves)], sb.Moves...)
			ex := append(sa.Examined[:len(sa.Examined):len(sa.Examined)], sb.Examined...)
			if k := len(mv) - frame.MaxMoves; k > 0 {
				mv, ex = mv[k:], ex[k:]
			}
			sb.Moves, sb.Examined = mv, ex
		}
		if len(sa.Log) > 0 {
			lg := append(sa.Log[:len(sa.Log):len(sa.Log)], sb.Log...)
			sb.LogDropped += sa.LogDropped
			if k := len(lg) - frame.MaxLogPerFrame; k > 0 {
				lg = lg[k:]
				sb.LogDropped += k
			}
			sb.Log = lg
		} else {
			sb.LogDropped += sa.LogDropped
		}
		if sb.Metrics == nil {
			sb.Metrics = sa.Metrics
		}
		if sb.LastMove == "" {
			sb.LastMove = sa.LastMove
		}
	}
	b.PausedOnMove = b.PausedOnMove || a.PausedOnMove
	return b
}

// apply runs one forwarded page API call on the session (the main thread
// ran it on its own state copy and returned that result; the session here
// does the same thing to the same state, so both agree).
func (w *simWorker) apply(op js.Value) {
	if op.Type() != js.TypeObject {
		return
	}
	name := op.Get("op").String()
	switch name {
	case "ack": // n frames drawn or waited for (1 when n is absent)
		n := 1
		if v := op.Get("n"); v.Type() == js.TypeNumber {
			n = v.Int()
		}
		w.inFlight = max(w.inFlight-n, 0)
		w.acked = true
		w.flush()
		return
	case "export": // not numbered: it changes nothing of the session
		id := op.Get("id").Float()
		workerExport(id, op.Get("s").String(), op.Get("s2").String(), func() bool { return w.cancelled(id) })
		return
	case "import": // not numbered: the page applies the result as a "replace"
		w.workerImport(op)
		return
	case "cancel": // an import or export the page gave up
		w.cancel(op.Get("id").Float())
		return
	}
	seq := uint64(op.Get("seq").Float())
	str := func(k string) string {
		if v := op.Get(k); v.Type() == js.TypeString {
			return v.String()
		}
		return ""
	}
	num := func(k string) float64 {
		if v := op.Get(k); v.Type() == js.TypeNumber {
			return v.Float()
		}
		return math.NaN()
	}
	s := w.sess
	if w.ff && name != "runToEnd" && name != "error" {
		// Any other call ends a run to the end where it is.
		w.ff = false
		w.endFF(nil, "interrupted by "+name+"()")
	}
	switch name {
	case "loadJSON":
		s.LoadJSON([]byte(str("s")))
	case "loadPreset":
		s.LoadPreset(str("s"), op.Get("b").Bool())
	case "loadLink":
		s.LoadLink(str("s"))
	case "load":
		if sc, err := scenarios.Decode([]byte(str("s"))); err != nil {
			s.SetError(err.Error())
		} else {
			s.Load(sc, op.Get("b").Bool())
		}
	case "set":
		s.Set(str("s"), str("s2"))
	case "compare":
		var sets []string
		if l := op.Get("list"); l.Truthy() {
			for i := 0; i < l.Length(); i++ {
				sets = append(sets, l.Index(i).String())
			}
		}
		s.SetCompare(sets)
	case "edit":
		nums, strs := op.Get("nums"), op.Get("strs")
		e, err := pagemodel.EditOp(str("s"), func(i int) float64 {
			if i < nums.Length() {
				return nums.Index(i).Float()
			}
			return math.NaN()
		}, func(i int) string {
			if i < strs.Length() {
				return strs.Index(i).String()
			}
			return ""
		})
		if err != nil {
			s.SetError(err.Error())
		} else {
			s.Edit(e)
		}
	case "speed":
		s.SetSpeed(num("n"))
	case "talk":
		s.SetTalk(op.Get("b").Bool())
	case "pom":
		s.SetPauseOnMove(op.Get("b").Bool())
	case "play":
		s.Play()
	case "pause":
		s.Pause()
	case "step":
		if now, err := s.Step(time.Duration(num("n"))); err == nil {
			w.step = now
		}
	case "do":
		s.Do(app.Command(num("n")))
	case "seek":
		s.Seek(num("n"))
	case "stepBack":
		s.StepBack(int64(num("n")))
	case "seekMig":
		s.SeekMigration(int(num("n")))
	case "chapter":
		s.GoChapter(int(num("n")))
	case "record":
		s.NoteTime(int64(num("n")))
		s.RecordChapter(str("s"))
	case "theme":
		s.SetTheme(str("s"))
	case "replace":
		if sc, err := scenarios.Decode([]byte(str("s"))); err != nil {
			s.SetError(err.Error())
		} else {
			sc.Title = str("t")
			s.Replace(sc)
		}
	case "undo":
		s.Undo()
	case "redo":
		s.Redo()
	case "error":
		s.SetError(str("s"))
	case "runToEnd":
		s.Pause()
		w.ff, w.ffDone, w.ffStop = true, false, ""
		w.ffStart, w.ffFrom = time.Now(), w.simNow()
	}
	w.applied = seq
}
