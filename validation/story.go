package validation

import (
	"fmt"
	"strings"
)

// Claim is one sentence of a seed thread that has no table but says what a
// kernel does: the simulator must show it. Check reads the run (averaged
// over the seeds) and says what it measured and whether the claim holds.
type Claim struct {
	Text   string // the claim, quoted or paraphrased
	Source string // seed file and lines
	Sets   []string
	Check  func(r Run) (measured string, holds bool)
}

// Story is a preset and the claims about it.
type Story struct {
	ID, Title, Preset string
	Sets              []string
	Claims            []Claim
	Note              string // what a failing claim means
}

// StoryResult is a story's claims, judged.
type StoryResult struct {
	Story    *Story
	Measured []string
	Holds    []bool
	SimMS    float64
}

// Stories returns the seed stories, in report order.
func Stories() []*Story {
	return append([]*Story{{
		ID:     "pelt-pingpong",
		Title:  "PELT in the balancer: one 80 % and two 40 % tasks on two CPUs (seed 000, Preeti U Murthy's example)",
		Preset: "pelt-pingpong",
		Note: "The steady state is reached with seeds 1-3 (one migration: the fork). Until wake-ups to polling CPUs spared " +
			"their IPI (3 December) seed 2 did not reach it: its tasks' phases let newidle balancing catch a 40 % task queued " +
			"behind the 80 % one and the periodic balancer move them on (14.6 migrations/s). The steady state exists, but " +
			"whether a run finds it from the start depends on the tasks' phases.",
		Claims: []Claim{
			{
				Text: "With load.weight (no PELT in the balancer) the balancer sees 2 tasks against 1 and \"could ping pong tasks " +
					"between these two situations\", even with wake-up placement out of the way (select_idle_sibling off).",
				Source: "seed 000 lines 44-52",
				Sets:   []string{"policy.load_metric=load_weight", "policy.select_idle_sibling=off"},
				Check: func(r Run) (string, bool) {
					return fmt.Sprintf("%.1f balancer migrations/s", r.BalanceMig), r.BalanceMig >= 1
				},
			},
			{
				Text: "With runnable_load_avg, \"40% task wakes up and select_idle_sibling() decides to wake it up on cpu1\"; " +
					"\"this makes load balance trigger movement of 40% from cpu1 back to cpu2\": both wake-up and balancer moves.",
				Source: "seed 000 lines 58-72",
				Sets:   []string{"policy.load_metric=runnable_load_avg"},
				Check: func(r Run) (string, bool) {
					return fmt.Sprintf("%.1f wake-up and %.1f balancer migrations/s", r.WakeupMig, r.BalanceMig),
						r.WakeupMig >= 1 && r.BalanceMig >= 1
				},
			},
			{
				Text: "With runnable + blocked load and wake-ups kept on prev_cpu, \"a steady state is maintained no matter what " +
					"unless other tasks show up\".",
				Source: "seed 000 lines 96-122",
				Sets:   []string{"policy.load_metric=runnable_plus_blocked", "policy.select_idle_sibling=off"},
				Check: func(r Run) (string, bool) {
					return fmt.Sprintf("%.2f migrations/s (per seed: %s)", r.Migrations, perSeed(r.PerSeedMig)), r.Migrations < 0.5
				},
			},
			{
				Text: "...at a price: blocked load can keep work off a CPU (\"we might prevent any more tasks from being scheduled on " +
					"that cpu during periodic load balance if the blocked load is too much. This is very poor cpu utilization\").",
				Source: "seed 000 lines 1222-1225 (Preeti U Murthy replying to Vincent Guittot)",
				Sets:   []string{"policy.load_metric=runnable_plus_blocked", "policy.select_idle_sibling=off"},
				Check: func(r Run) (string, bool) {
					return fmt.Sprintf("idle while overloaded %.1f %% of CPU time", r.IdleOverPct), r.IdleOverPct >= 1
				},
			},
		},
	}}, seed004Stories()...) // seed 004: validation/seed004.go (issue 17)
}

func perSeed(xs []float64) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.2f", x)
	}
	return b.String()
}

// RunStories runs every claim over the seeds.
func RunStories(stories []*Story, opt Options) ([]StoryResult, error) {
	var all []*job
	type cj struct{ jobs []*job }
	var per [][]cj
	for _, st := range stories {
		var cs []cj
		for ci := range st.Claims {
			c := &st.Claims[ci]
			t := &Table{ID: st.ID, Preset: st.Preset, Sets: st.Sets}
			var x cj
			for _, seed := range opt.Seeds {
				s, err := t.build(&Point{Label: "claim"}, c.Sets, seed)
				if err != nil {
					return nil, err
				}
				j := &job{scen: s, scale: 1}
				x.jobs = append(x.jobs, j)
				all = append(all, j)
			}
			cs = append(cs, x)
		}
		per = append(per, cs)
	}
	runAll(all, opt.Workers)
	var out []StoryResult
	for si, st := range stories {
		sr := StoryResult{Story: st}
		for ci := range st.Claims {
			r, err := summarize(per[si][ci].jobs)
			if err != nil {
				return nil, fmt.Errorf("story %s claim %d: %w", st.ID, ci, err)
			}
			m, ok := st.Claims[ci].Check(r)
			sr.Measured = append(sr.Measured, m)
			sr.Holds = append(sr.Holds, ok)
			sr.SimMS = r.SimMS
		}
		out = append(out, sr)
	}
	return out, nil
}
