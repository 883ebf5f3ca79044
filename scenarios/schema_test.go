package scenarios

import (
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"schedplay/sim"
)

var updateFormat = flag.Bool("update-format", false, "rewrite the field reference in FORMAT.md")

const (
	refBegin = "<!-- fields:begin -->\n"
	refEnd   = "<!-- fields:end -->"
)

// TestFormatFieldReference: FORMAT.md's field reference is the schema's.
func TestFormatFieldReference(t *testing.T) {
	data, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, refBegin), strings.Index(doc, refEnd)
	if i < 0 || j < i {
		t.Fatalf("FORMAT.md lacks the markers %q ... %q", refBegin, refEnd)
	}
	want := doc[:i+len(refBegin)] + FieldReference() + doc[j:]
	if *updateFormat {
		if err := os.WriteFile("FORMAT.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Fatal("FORMAT.md's field reference differs from the schema (go test ./scenarios -run FormatFieldReference -update-format)")
	}
	for _, f := range Fields() {
		if !strings.Contains(doc, "| `"+f.Path+"` |") {
			t.Errorf("FORMAT.md has no row for %s", f.Path)
		}
	}
}

// TestFormatPolicyLists: FORMAT.md's hand-written policy table names every
// base and its features bullet every feature, as the generated reference
// below them does (they fell behind it once: v2.6.8, BALANCE_WAKE_MERGE
// and DELAY_DEQUEUE were missing).
func TestFormatPolicyLists(t *testing.T) {
	data, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, "| `base` |"), strings.Index(doc, "- **Features**:")
	if i < 0 || j < 0 {
		t.Fatalf("FORMAT.md has no policy row for base (%d) or no features bullet (%d)", i, j)
	}
	row := doc[i:]
	row = row[:strings.IndexByte(row, '\n')]
	for _, b := range bases {
		if !strings.Contains(row, "`\""+b.name+"\"`") {
			t.Errorf("FORMAT.md's base row %q does not name %q", row, b.name)
		}
	}
	feats := doc[j:]
	if k := strings.Index(feats, "\n\n"); k > 0 {
		feats = feats[:k]
	}
	for f := sim.Feature(0); f < sim.NumFeatures; f++ {
		if !strings.Contains(feats, "`"+f.String()+"`") {
			t.Errorf("FORMAT.md's features bullet does not name %s", f)
		}
	}
}

// schemaBase is a scenario in which every pattern has an instance.
const schemaBase = `{"version":2,"title":"t","seed":3,"duration":"1s","summary":"s",
 "view":{"speed":0.001,"compare":["policy.features.WAKE_AFFINE=false"],"theme":"light","time_ms":5,"chapter":1,
  "chapters":[{"caption":"c","set":["seed=4"],"compare":["policy.features.WAKE_AFFINE=false"],"seek":"10ms","speed":0.002,"pause_on_move":true,"play":true},
   {"caption":"d","at":{"event":"migrate","cause":"wakeup","task":"client/0","nth":2}}]},
 "machine":{"nodes":2,"cores_per_cluster":4,"threads_per_core":2,
  "costs":{"idle_states":[{"name":"C1","after":"0s","exit_latency":"2us"},{"name":"C6","after":"1ms","exit_latency":"80us"}]}},
 "policy":{"sd_flags":{"MC":{"SD_BALANCE_WAKE":true}},"tunables":{"MC":{"imbalance_pct":117}},"features":{"WAKE_AFFINE":true}},
 "tasks":[
  {"name":"client","count":2,"program":[{"repeat":2,"program":[{"run":"20us"},{"exec":true}]},{"wake":"server","sync":true},{"wait":true},{"timer":"10ms"}]},
  {"name":"server","count_of":"client","program":[{"wait":true},{"run":"20us"},{"wake":"client","sync":true,"fanout":"waker"}]},
  {"name":"shell","program":[{"fork":"cmd","count":2},{"wait_children":true},{"run":"1ms"}]},
  {"name":"cmd","count":0,"program":[{"run":"1ms"},{"exit":true}]},
  {"name":"locker","program":[{"lock":"m"},{"cond_wait":"c","mutex":"m"},{"unlock":"m"},{"signal":"c"},{"broadcast":"c"},{"barrier":"b"},{"run":"1ms"}]}]}`

// schemaBase268 is schemaBase on base v2.6.8 (whose flags and switches
// differ), for the rows that exist only there and for policy.base=v2.6.8.
const schemaBase268 = `{"version":1,"title":"t","seed":3,"duration":"1s","summary":"s",
 "machine":{"nodes":2,"cores_per_cluster":4,"threads_per_core":2},
 "policy":{"base":"v2.6.8","cpu_scheduler":"staircase","exec_balance_threshold":1,
  "sd_flags":{"MC":{"SD_WAKE_BALANCE":true}},"features":{"NEWIDLE_BALANCE":true}},
 "tasks":[{"name":"client","count":2,"program":[{"run":"20us"},{"timer":"10ms"}]}]}`

// schemaBasePerCPU is schemaBase's workload on a machine given per CPU, for
// the rows of machine.cpus and machine.numa_distance.
const schemaBasePerCPU = `{"version":2,"title":"t","seed":3,"duration":"1s",
 "machine":{"cpus":[{"cpu":0,"core":0,"cluster":0,"llc":0},{"cpu":1,"core":1,"cluster":0,"llc":0},
  {"cpu":4,"core":4,"llc":4,"socket":1,"node":1},{"cpu":5,"core":5,"llc":4,"socket":1,"node":1}],
  "numa_distance":["10 21","21 10"]},
 "tasks":[{"name":"client","count":2,"cpus":"0-1,5","program":[{"run":"20us"},{"timer":"10ms"}]}]}`

// perCPURow reports whether a row belongs to the per-CPU machine.
func perCPURow(path string) bool {
	return strings.HasPrefix(path, "machine.cpus") || strings.HasPrefix(path, "machine.numa_distance")
}

// instances returns concrete paths of a pattern in schemaBase: every index
// of every list, MC, SD_BALANCE_WAKE and WAKE_AFFINE for the placeholders.
func instances(s *Scenario, pattern string) []string {
	paths := []string{""}
	for _, tok := range patternTokens(pattern) {
		var next []string
		for _, p := range paths {
			switch tok {
			case "[i]":
				v, err := s.Get(p)
				if err != nil {
					panic(err)
				}
				var list []json.RawMessage
				_ = json.Unmarshal([]byte(v), &list)
				for i := range list {
					next = append(next, p+"["+itoa(i)+"]")
				}
			case "<level>":
				next = append(next, p+".MC")
			case "<flag>":
				next = append(next, p+".SD_BALANCE_WAKE")
			case "<feature>":
				next = append(next, p+".WAKE_AFFINE")
			default:
				if p == "" {
					next = append(next, tok)
				} else {
					next = append(next, p+"."+tok)
				}
			}
		}
		paths = next
	}
	return paths
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestSchemaRoundTrip walks the schema: for every field, its example value
// (and every enum value) is Set on some instance, read back by Get, kept by
// Decode(Canonical()), and Set(path, Get(path)) changes nothing; "" restores
// the default.
func TestSchemaRoundTrip(t *testing.T) {
	base, err := Decode([]byte(schemaBase))
	if err != nil {
		t.Fatal(err)
	}
	perCPU, err := Decode([]byte(schemaBasePerCPU))
	if err != nil {
		t.Fatal(err)
	}
	regular := base
	for _, f := range Fields() {
		base := regular
		if perCPURow(f.Path) {
			base = perCPU
		}
		t.Run(f.Path, func(t *testing.T) {
			if f.Doc == "" || f.Since < 1 || f.Since > MaxVersion {
				t.Errorf("row lacks a doc or a version: %+v", f)
			}
			paths := instances(base, f.Path)
			if len(paths) == 0 {
				t.Fatalf("no instance of %s in the test scenario", f.Path)
			}
			// Get then Set of the same value changes nothing, anywhere.
			for _, p := range paths {
				v, err := base.Get(p)
				if err != nil {
					t.Fatalf("Get(%s): %v", p, err)
				}
				c := base.Clone()
				if err := c.Set(p, v); err != nil {
					t.Fatalf("Set(%s, Get = %q): %v", p, v, err)
				}
				if string(c.Canonical()) != string(base.Canonical()) {
					t.Errorf("Set(%s, Get(%s)) changed the scenario", p, p)
				}
			}
			if f.Kind == KindObject || f.Kind == KindMap {
				return
			}
			values := []string{f.Example}
			if f.Kind == KindEnum || len(f.Enum) > 0 {
				values = f.Enum
			}
			if f.Example == "" {
				t.Fatalf("leaf row without an example")
			}
			base268, err := Decode([]byte(schemaBase268))
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range values {
				ok := false
				cands := []*Scenario{base}
				if len(f.Bases) > 0 && !slices.Contains(f.Bases, "v6.17") || f.Path == "policy.base" {
					cands = append(cands, base268)
				}
				for _, p := range paths {
					for _, b := range cands {
						if ok {
							break
						}
						base := b
						c := base.Clone()
						if c.Set(p, v) != nil {
							continue // the value does not fit this instance (sync on a run step)
						}
						ok = true
						got, err := c.Get(p)
						if err != nil || (got != v && f.Kind != KindList) {
							t.Errorf("Set(%s, %q) then Get = %q, %v", p, v, got, err)
						}
						if strings.HasPrefix(p, "view") || p == "summary" {
							// Outside the canonical JSON; the view travels by its own codec.
							if string(c.Canonical()) != string(base.Canonical()) {
								t.Errorf("Set(%s) changed the canonical JSON", p)
							}
							if p != "summary" {
								view, err := DecodeView(EncodeView(c.View))
								if err != nil {
									t.Fatalf("DecodeView(EncodeView) after Set(%s, %q): %v", p, v, err)
								}
								d := base.Clone()
								d.View = view
								if g2, _ := d.Get(p); g2 != got {
									t.Errorf("%s: %q after Set, %q after the view codec", p, got, g2)
								}
							}
						} else {
							d, err := Decode(c.Canonical())
							if err != nil {
								t.Fatalf("Decode(Canonical) after Set(%s, %q): %v", p, v, err)
							}
							if g2, _ := d.Get(p); g2 != got {
								t.Errorf("%s: %q after Set, %q after Decode(Canonical)", p, got, g2)
							}
							if string(d.Canonical()) != string(c.Canonical()) {
								t.Errorf("%s=%s: Canonical does not round-trip", p, v)
							}
						}
						// "" restores the default (or makes the field absent).
						if f.required == "" && f.Kind != KindName && f.Kind != KindList && f.Path != "duration" {
							e := c.Clone()
							if err := e.Set(p, ""); err == nil {
								want := f.Default
								if f.lazy {
									want, _ = e.Get(p)
								}
								if got, _ := e.Get(p); got != want && !(f.Kind == KindBool && got == "false") {
									t.Errorf("Set(%s, \"\") then Get = %q, want the default %q", p, got, want)
								}
							}
						}
						break
					}
				}
				if !ok {
					t.Errorf("no instance of %s takes %q", f.Path, v)
				}
			}
		})
	}
}

// TestSchemaDefaults: a minimal file gets every row's default.
func TestSchemaDefaults(t *testing.T) {
	s, err := Decode([]byte(`{"version":1,"duration":"1s","tasks":[{"name":"a","program":[{"run":"1ms"},{"wake":"a"}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range Fields() {
		if f.Default == "" || f.at == nil {
			continue
		}
		for _, p := range instances(s, f.Path) {
			got, err := s.Get(p)
			if err != nil {
				t.Fatal(err)
			}
			if got != f.Default && !(f.lazy && got == "") {
				t.Errorf("%s: %q, want the default %q", p, got, f.Default)
			}
		}
	}
}

// TestSchemaCoversStructs: every JSON field of the Go types has a row, and
// every row a JSON field, so a field cannot be added to one without the
// other.
func TestSchemaCoversStructs(t *testing.T) {
	var fromTypes []string
	var walk func(prefix string, typ reflect.Type)
	walking := map[reflect.Type]bool{} // a repeat's program holds steps again: walk a type once per path
	walk = func(prefix string, typ reflect.Type) {
		walking[typ] = true
		defer delete(walking, typ)
		for i := 0; i < typ.NumField(); i++ {
			sf := typ.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if sf.Anonymous && name == "" {
				// An embedded struct (a step's sync part): its fields are the
				// outer object's, as encoding/json promotes them.
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				walk(prefix, et)
				continue
			}
			if name == "" || name == "-" {
				continue
			}
			p := name
			if prefix != "" {
				p = prefix + "." + name
			}
			fromTypes = append(fromTypes, p)
			ft := sf.Type
			for ft.Kind() == reflect.Map {
				p += ".<>"
				ft = ft.Elem()
				fromTypes = append(fromTypes, p)
			}
			if ft.Kind() == reflect.Slice && walking[ft.Elem()] {
				continue // the elements are rows already (tasks[i].program[j])
			}
			if ft.Kind() == reflect.Slice {
				p += "[i]"
				ft = ft.Elem()
				fromTypes = append(fromTypes, p)
			}
			if ft.Kind() == reflect.Struct {
				walk(p, ft)
			}
		}
	}
	walk("", reflect.TypeOf(Scenario{}))
	var fromRows []string
	for _, f := range Fields() {
		p := f.Path
		for _, ph := range []string{"<level>", "<flag>", "<feature>"} {
			p = strings.ReplaceAll(p, ph, "<>")
		}
		p = strings.ReplaceAll(p, "[j]", "[i]")
		fromRows = append(fromRows, p)
	}
	slices.Sort(fromTypes)
	slices.Sort(fromRows)
	if !slices.Equal(fromTypes, fromRows) {
		t.Errorf("schema rows and Go fields differ:\n types: %v\n rows:  %v", fromTypes, fromRows)
	}
}

// TestSchemaWords: every enum value has its words where the editor shows
// a menu, every flag the editor offers and every feature is explained, and
// every row has a group.
func TestSchemaWords(t *testing.T) {
	doc := Schema()
	for _, f := range doc.Fields {
		if f.Group == "" {
			t.Errorf("%s has no group", f.Path)
		}
		if _, ok := enumDocs[f.Path]; ok {
			for i, v := range f.Enum {
				if f.EnumDocs[i] == "" {
					t.Errorf("%s: value %s has no words", f.Path, v)
				}
			}
		}
	}
	for path, docs := range enumDocs {
		for v := range docs {
			if !slices.Contains(fieldRow(path).Enum, v) {
				t.Errorf("%s: words for %s, which is not a value", path, v)
			}
		}
	}
	if len(doc.Keys["<feature>"]) != len(featureNames()) || len(doc.Keys["<flag>"]) != len(Placeholders()["<flag>"]) {
		t.Errorf("keys: %d features, %d flags", len(doc.Keys["<feature>"]), len(doc.Keys["<flag>"]))
	}
	for _, k := range doc.Keys["<feature>"] {
		if k.Doc == "" || k.Group == "" {
			t.Errorf("feature %s has no words or group", k.Name)
		}
	}
	for _, f := range EditableFlags() {
		if !slices.Contains(Placeholders()["<flag>"], f) {
			t.Errorf("editable flag %s is not a flag", f)
		}
	}
}
