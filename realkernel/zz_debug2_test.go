package realkernel

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"schedplay/interop"
)

func TestZZReanalyse(t *testing.T) {
	for _, f := range strings.Fields(os.Getenv("DBG_PAIRS")) {
		tf, jf, _ := strings.Cut(f, ",")
		data, _ := os.ReadFile(tf)
		js, _ := os.ReadFile(jf)
		var res Result
		json.Unmarshal(js, &res)
		var th []Thread
		for _, tk := range res.Tasks {
			th = append(th, Thread{Name: tk.Name, TID: tk.TID, Ops: tk.Ops})
		}
		var w Window
		w.NCPU = 2
		interop.ParseFtrace(data, func(e *interop.FtraceEvent) error {
			if v, ok := strings.CutPrefix(e.Text, "schedsim start "); ok {
				w.StartNS, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
			if v, ok := strings.CutPrefix(e.Text, "schedsim end "); ok {
				w.EndNS, _ = strconv.ParseInt(strings.Fields(v)[0], 10, 64)
			}
			return nil
		})
		r, err := Analyze(data, th, w)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("%s: before busy %.2f ctx %d lat p50 %.1f | after busy %.2f ctx %d inferred %d lat p50 %.1f p95 %.1f |", tf, res.BusyPct, res.CtxSwitches, res.WakeupLatencyUS.P50, r.BusyPct, r.CtxSwitches, r.InferredSwitchIns, r.WakeupLatencyUS.P50, r.WakeupLatencyUS.P95)
		for i := range r.Tasks {
			fmt.Printf(" %s %.1f->%.1f", r.Tasks[i].Name, res.Tasks[i].CPUMS, r.Tasks[i].CPUMS)
		}
		fmt.Println()
	}
}
