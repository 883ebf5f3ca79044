//go:build !js

package e2e

import (
	"encoding/json"
	"testing"
	"time"
)

// The scrubber's row fits its column (issue 20): every button shows its
// whole text inside its border, the time label is whole, on at most two
// lines and not under the panel, and the track keeps a width a finger can
// drag. Before, at 360x640 "move" ran out of the "◀ move" button and the
// time took four lines; in a 1040 px window with the editor open the row
// was wider than the stage's column and the time went under the panel.
func TestScrubberRowFits(t *testing.T) {
	for _, v := range []struct {
		viewport
		editor bool
	}{
		{viewport: viewport{"phone-small", 360, 640, 3, true}},
		{viewport: viewport{"phone-portrait", 390, 844, 3, true}},
		{viewport: viewport{"phone-landscape", 844, 390, 3, true}},
		{viewport: viewport{"tablet", 768, 1024, 2, true}},
		{viewport{"desktop-editor", 1040, 1000, 1, false}, true},
		{viewport: viewport{"laptop", 1280, 720, 1, false}},
		{viewport{"desktop", 1600, 1000, 1, false}, true},
	} {
		t.Run(v.name, func(t *testing.T) {
			tb := newTab(t, true)
			tb.openAt(v.viewport)
			if v.editor {
				tb.showEditor(true)
				tb.poll(`!document.body.classList.contains("no-editor")`, 5*time.Second)
			}
			time.Sleep(500 * time.Millisecond)
			var got struct {
				Problems []string
				Track    float64
				Label    string
				Widths   string
			}
			raw := eval[[]byte](tb, `(() => {
				const out = [];
				const box = document.getElementById("timeline").getBoundingClientRect();
				const right = Math.min(box.right, innerWidth);
				const inside = (e, what) => {
					const r = e.getBoundingClientRect();
					if (r.left < box.left - 0.5 || r.right > right + 0.5) out.push(what + " spans x " + r.left.toFixed(1) + ".." + r.right.toFixed(1) + ", outside the scrubber's " + box.left.toFixed(1) + ".." + right.toFixed(1));
					const x = Math.min(r.right - 2, innerWidth - 1), y = r.top + r.height / 2;
					const hit = document.elementFromPoint(x, y);
					if (hit && hit !== e && !e.contains(hit)) out.push(what + ": its right end is under " + hit.tagName + (hit.id ? "#" + hit.id : ""));
					return r;
				};
				for (const b of document.querySelectorAll("#timeline button")) {
					inside(b, "button " + JSON.stringify(b.textContent));
					if (b.scrollWidth > b.clientWidth + 1) out.push("button " + JSON.stringify(b.textContent) + ": text " + b.scrollWidth + " px wide in " + b.clientWidth + " px");
				}
				const l = document.getElementById("tl-label");
				const lr = inside(l, "time label");
				const lh = parseFloat(getComputedStyle(l).lineHeight) || 1.2 * parseFloat(getComputedStyle(l).fontSize);
				if (lr.height > 2.5 * lh) out.push("time label " + JSON.stringify(l.textContent) + " takes " + (lr.height / lh).toFixed(1) + " lines");
				if (l.scrollWidth > l.clientWidth + 1) out.push("time label text " + l.scrollWidth + " px wide in " + l.clientWidth + " px");
				const tr = inside(document.getElementById("tl-track"), "track");
				const widths = [...document.querySelectorAll("#timeline .tl-row > *")].map(e => e.id + " " + e.getBoundingClientRect().width.toFixed(0)).join(", ");
				return {Problems: out, Track: tr.width, Label: l.textContent, Widths: widths};
			})()`)
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: track %.0f px, label %q; widths %s", v.name, got.Track, got.Label, got.Widths)
			for _, p := range got.Problems {
				t.Errorf("%s", p)
			}
			if got.Track < 64 {
				t.Errorf("the track is %.0f px wide; want at least 64 to drag it", got.Track)
			}
			tb.stageShot("scrubber-"+v.name+".png", v.scale)
		})
	}
}
