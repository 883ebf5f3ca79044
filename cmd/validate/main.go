// Command validate runs every seed table of package validation and writes
// the report (docs/validation.md by default): `make validate`.
//
//	go run ./cmd/validate [-o docs/validation.md] [-claims docs/validation-claims.json]
//		[-seeds 1,2,3] [-sens 0.5,2] [-families=true] [-tables id,id] [-j N]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"schedplay/validation"
)

func main() {
	out := flag.String("o", "docs/validation.md", "report file (- for stdout)")
	claims := flag.String("claims", "docs/validation-claims.json", "where to write the points that hold, for the shape test (empty: nowhere)")
	seeds := flag.String("seeds", "1,2,3", "seeds each point is averaged over")
	sens := flag.String("sens", "0.5,2", "cost scale factors of the sensitivity runs (empty: none)")
	families := flag.Bool("families", true, "rerun each missed point with one cost family at a time scaled by each -sens factor")
	tables := flag.String("tables", "", "only these table ids, comma-separated (default: all)")
	workers := flag.Int("j", 0, "parallel simulations (default GOMAXPROCS)")
	flag.Parse()

	opt := validation.DefaultOptions()
	opt.Workers = *workers
	opt.Families = *families
	opt.Seeds = nil
	for _, s := range strings.Split(*seeds, ",") {
		n, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
		if err != nil {
			fail(2, fmt.Errorf("-seeds: %q is not a seed", s))
		}
		opt.Seeds = append(opt.Seeds, n)
	}
	opt.Sensitivity = nil
	if *sens != "" {
		for _, s := range strings.Split(*sens, ",") {
			f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || f <= 0 {
				fail(2, fmt.Errorf("-sens: %q is not a positive factor", s))
			}
			opt.Sensitivity = append(opt.Sensitivity, f)
		}
	}
	if *tables != "" {
		opt.Tables = strings.Split(*tables, ",")
	}

	start := time.Now()
	rs, err := validation.Validate(validation.Tables(), opt)
	if err != nil {
		fail(1, err)
	}
	var stories []validation.StoryResult
	if *tables == "" {
		if stories, err = validation.RunStories(validation.Stories(), opt); err != nil {
			fail(1, err)
		}
	}
	var buf bytes.Buffer
	validation.WriteReport(&buf, rs, stories, opt, validation.ReportInfo{
		CostsCommit: costsCommit(),
		Command:     "make validate",
	})
	if *out == "-" {
		os.Stdout.Write(buf.Bytes())
	} else if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fail(1, err)
	}
	if *claims != "" && *tables == "" {
		var cb bytes.Buffer
		if err := validation.WriteClaims(&cb, rs, opt); err != nil {
			fail(1, err)
		}
		if err := os.WriteFile(*claims, cb.Bytes(), 0o644); err != nil {
			fail(1, err)
		}
	}
	s := validation.Summarize(rs)
	fmt.Fprintf(os.Stderr, "validate: %d of %d points hold (sign right at %d of %d), %.1f s\n",
		s.Holds, s.Points, s.SignRight, s.Big, time.Since(start).Seconds())
	// Every miss has its reason written down: a new one fails the run (the
	// report is written, with the point under "not explained").
	if un := validation.Unexplained(validation.Misses(rs, validation.Causes())); len(un) > 0 {
		fail(1, fmt.Errorf("%d missed points have no cause in validation/causes.go: %s", len(un), strings.Join(un, "; ")))
	}
}

// costsCommit names the commit that last changed the cost defaults, so the
// report says which commit set them.
func costsCommit() string {
	b, err := exec.Command("git", "log", "-1", "--format=%h (%s)", "--", "sim/costs.go").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func fail(code int, err error) {
	fmt.Fprintln(os.Stderr, "validate:", err)
	os.Exit(code)
}
