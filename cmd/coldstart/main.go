//go:build !js

// Command coldstart measures the page's first frame from cold starts: each
// start is a fresh headless Chromium with an empty profile (no HTTP cache,
// no V8 code cache) loading the page from a local server, and the time is
// the page's own stats().first_frame_ms (from navigation start). One cold
// start scatters by a second or more on a 2-core machine, so a claim about
// the start needs many, and a comparison needs them alternated:
//
//	coldstart [-n 8] [-warm D] [-js-flags F] DIR [DIR2]
//
// With one directory it starts the page served from DIR n times; with two
// it alternates them (A B A B ..., then B A B A in the next round, so that
// neither side always runs first) and prints both sides' distributions.
// DIR is a directory like web/ after make wasm (served by web.Handler, with
// its precompressed copies); a variant to compare is a copy of it with the
// change. -js-flags passes V8 flags to the browser (a diagnostic: a page
// cannot set them). Exit status 2 for bad arguments, 1 when a start fails.
//
// -warm D shows about:blank in each fresh browser for D before it loads
// the page, so that the browser's own start is over: a just-launched
// Chromium spends a second or two of CPU on its GPU process and on the
// renderer of its top-chrome WebUI, and in about half of the starts here
// the page's main thread slept 0.3-1.5 s right after its instantiation
// while they ran (docs/performance.md, round thirty-six). With -warm 3s
// the page starts as in a browser that was already running when the link
// was opened; the profile is still empty (no HTTP cache, no code cache).
//
// -profile DIR profiles each start's main thread from navigation to the
// first frame (V8's sampling profiler, 100 µs) and writes it to DIR as a
// .cpuprofile (Chrome DevTools' Performance panel opens it), and prints the
// start's longest tasks with the functions that took most of each. Names
// need a module built without -s -w: make profile-start does that in a copy
// of web/ and runs this.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"schedplay/internal/headless"
	"schedplay/internal/stats"
	"schedplay/web"
)

func main() {
	n := flag.Int("n", 8, "cold starts per directory")
	jsFlags := flag.String("js-flags", "", "V8 flags for the browser (diagnostics only)")
	timeout := flag.Duration("timeout", 60*time.Second, "limit for one start")
	warm := flag.Duration("warm", 0, "show about:blank this long in each fresh browser before the page (a browser already running)")
	profDir := flag.String("profile", "", "write each start's main-thread CPU profile to this directory and print its longest tasks")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: coldstart [-n N] [-warm D] [-js-flags F] [-timeout D] [-profile DIR] DIR [DIR2]")
		flag.PrintDefaults()
	}
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) < 1 || len(dirs) > 2 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "main.wasm")); err != nil {
			fmt.Fprintf(os.Stderr, "coldstart: %s: no main.wasm (run make wasm): %v\n", d, err)
			os.Exit(2)
		}
	}
	if why := headless.Missing(); why != "" {
		fmt.Fprintln(os.Stderr, "coldstart:", why)
		os.Exit(2)
	}
	times := make([][]float64, len(dirs))
	for round := 0; round < *n; round++ {
		for k := range dirs {
			side := k
			if round%2 == 1 {
				side = len(dirs) - 1 - k
			}
			ms, marks, prof, err := start(dirs[side], *jsFlags, *timeout, *profDir != "", *warm)
			if err != nil {
				fmt.Fprintf(os.Stderr, "coldstart: %s, start %d: %v\n", dirs[side], round+1, err)
				os.Exit(1)
			}
			times[side] = append(times[side], ms)
			fmt.Printf("%s  start %d  first frame %5.0f ms  %s\n", label(side), round+1, ms, marks)
			if prof != nil {
				name := filepath.Join(*profDir, fmt.Sprintf("start-%s%d.cpuprofile", label(side), round+1))
				if err := writeProfile(name, prof); err != nil {
					fmt.Fprintf(os.Stderr, "coldstart: %v\n", err)
					os.Exit(1)
				}
				fmt.Printf("   main thread profile: %s\n%s", name, longTasks(prof, 50, 3, 12))
			}
		}
	}
	fmt.Println()
	for i, d := range dirs {
		s := summarize(times[i])
		fmt.Printf("%s  %s: %d starts, first frame min %.0f, median %.0f, max %.0f ms; %d within 3 s\n",
			label(i), d, s.n, s.min, s.median, s.max, s.within3s)
	}
}

func label(side int) string { return string(rune('A' + side)) }

// start loads the page from dir in a new browser and returns the first
// frame's time and the page's schedplay:* performance marks, and with prof
// the main thread's CPU profile from navigation to the first frame. With
// warm > 0 the browser shows about:blank that long first (-warm).
func start(dir, jsFlags string, limit time.Duration, prof bool, warm time.Duration) (ms float64, marks string, p *profiler.Profile, err error) {
	srv := httptest.NewServer(web.Handler(dir))
	defer srv.Close()
	profile, err := os.MkdirTemp("", "coldstart-chromium-")
	if err != nil {
		return 0, "", nil, err
	}
	defer os.RemoveAll(profile)
	opts := append(headless.Options(), chromedp.UserDataDir(profile))
	if jsFlags != "" {
		opts = append(opts, chromedp.Flag("js-flags", jsFlags))
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	if warm > 0 {
		if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
			return 0, "", nil, err
		}
		time.Sleep(warm)
	}
	if prof {
		if err := chromedp.Do(ctx, startProfiler); err != nil {
			return 0, "", nil, err
		}
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")); err != nil {
		return 0, "", nil, err
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](
		`window.schedplay && window.schedplay.stats && window.schedplay.stats().first_frame_ms > 0`)); err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(document.getElementById("error") && document.getElementById("error").textContent)`))
		return 0, "", nil, errors.Join(fmt.Errorf("no first frame: %w", err), errors.New(msg))
	}
	if prof {
		if p, err = chromedp.Run(ctx, stopProfiler); err != nil {
			return 0, "", nil, err
		}
	}
	ms, err = chromedp.Run(ctx, chromedp.Evaluate[float64](`window.schedplay.stats().first_frame_ms`))
	if err != nil {
		return 0, "", nil, err
	}
	// The first frame may be the page's own picture at t = 0; the worker's
	// first drawn frame follows (a page from before that split has only
	// first_frame_ms).
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](
		`(() => { const v = window.schedplay.stats().first_sim_frame_ms; return v === undefined || v > 0 })()`)); err != nil {
		return 0, "", nil, fmt.Errorf("no frame from the worker: %w", err)
	}
	simMS, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`window.schedplay.stats().first_sim_frame_ms || 0`))
	if err != nil {
		return 0, "", nil, err
	}
	list, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`performance.getEntriesByType("mark").filter((m) => m.name.startsWith("schedplay:")).map((m) => m.name.slice(10) + " " + Math.round(m.startTime))`))
	if err != nil {
		return 0, "", nil, err
	}
	if simMS > 0 {
		list = append(list, fmt.Sprintf("worker's first frame drawn %.0f", simMS))
	}
	return ms, strings.Join(list, ", "), p, nil
}

// summary is a distribution of first frames, ms.
type summary struct {
	n                int
	min, median, max float64
	within3s         int
}

func summarize(ms []float64) summary {
	s := summary{n: len(ms)}
	if len(ms) == 0 {
		return s
	}
	s.min, s.max, s.median = slices.Min(ms), slices.Max(ms), stats.Median(ms)
	for _, x := range ms {
		if x <= 3000 {
			s.within3s++
		}
	}
	return s
}
