//go:build !js

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profileIntervalUS is the profiler's sampling interval: fine enough to
// split a start into its tasks, coarse enough not to slow it much.
const profileIntervalUS = 100

// startProfiler starts V8's sampling profiler on the page's main thread
// (the target's isolate; the worker's is another).
func startProfiler(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
	if _, err := cdp.Call(ctx, tg, profiler.Enable, cdp.Empty{}); err != nil {
		return chromedp.Void{}, err
	}
	if _, err := cdp.Call(ctx, tg, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: profileIntervalUS}); err != nil {
		return chromedp.Void{}, err
	}
	_, err := cdp.Call(ctx, tg, profiler.Start, cdp.Empty{})
	return chromedp.Void{}, err
}

func stopProfiler(ctx context.Context, tg *chromedp.Target) (*profiler.Profile, error) {
	r, err := cdp.Call(ctx, tg, profiler.Stop, cdp.Empty{})
	if err != nil {
		return nil, err
	}
	return r.Profile, nil
}

// writeProfile writes p as a .cpuprofile file (the protocol's Profile as
// JSON, which DevTools and speedscope open).
func writeProfile(name string, p *profiler.Profile) error {
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	return os.WriteFile(name, b, 0o644)
}

// trampolines are the frames every stretch of Go on the page runs inside
// (the JS entry, wasm_exec.js, the Go scheduler's loop and event
// handling): listed, they would head every task.
var trampolines = map[string]bool{
	"(root)": true, "start": true, "run": true, "_resume": true, "js-to-wasm": true, "wasm-to-js": true,
	"wasm_export_run": true, "wasm_export_resume": true, "wasm_pc_f_loop": true,
	"runtime.handleEvent": true, "syscall_js.handleEvent": true,
}

// longTasks describes the main thread's longest busy stretches in p, at
// most maxTasks of at least minMS each (a stretch is consecutive samples
// in a script: "(idle)" and "(program)", the browser's native work outside
// any script, end one, and back-to-back tasks with no such sample between
// them make one), each with the topN functions that
// took most of it, by time inclusive of what they called (trampolines
// left out).
func longTasks(p *profiler.Profile, minMS float64, maxTasks, topN int) string {
	type task struct {
		ms   float64
		incl map[string]float64
	}
	byID := make(map[int64]*profiler.ProfileNode, len(p.Nodes))
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	name := func(n *profiler.ProfileNode) string {
		if n == nil || n.CallFrame == nil {
			return ""
		}
		return n.CallFrame.FunctionName
	}
	var tasks []task
	cur := task{incl: map[string]float64{}}
	end := func() {
		if cur.ms >= minMS {
			tasks = append(tasks, cur)
		}
		cur = task{incl: map[string]float64{}}
	}
	for i, id := range p.Samples {
		// A sample stands for the time until the next one.
		var dt float64
		if i+1 < len(p.TimeDeltas) {
			dt = float64(p.TimeDeltas[i+1]) / 1000
		}
		switch name(byID[id]) {
		case "(idle)", "(program)", "(root)":
			end()
			continue
		}
		cur.ms += dt
		seen := map[string]bool{}
		for x, ok := id, true; ok; x, ok = parent[x] {
			nm := name(byID[x])
			if nm == "" || trampolines[nm] || seen[nm] {
				continue
			}
			seen[nm] = true
			cur.incl[nm] += dt
		}
	}
	end()
	sort.SliceStable(tasks, func(i, j int) bool { return tasks[i].ms > tasks[j].ms })
	var b strings.Builder
	for i, t := range tasks {
		if i == maxTasks {
			break
		}
		fmt.Fprintf(&b, "   task of %.0f ms:\n", t.ms)
		names := make([]string, 0, len(t.incl))
		for nm := range t.incl {
			names = append(names, nm)
		}
		sort.Slice(names, func(i, j int) bool {
			if t.incl[names[i]] != t.incl[names[j]] {
				return t.incl[names[i]] > t.incl[names[j]]
			}
			return names[i] < names[j]
		})
		for k, nm := range names {
			if k == topN {
				break
			}
			fmt.Fprintf(&b, "     %6.0f ms  %s\n", t.incl[nm], nm)
		}
	}
	return b.String()
}
