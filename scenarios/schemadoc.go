package scenarios

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"schedplay/sim"
)

// SchemaDoc is the schema as the page and `schedsim fields -json` receive
// it: every row, and the names each placeholder takes.
type SchemaDoc struct {
	Version      int                  `json:"version"`
	Fields       []Field              `json:"fields"`
	Placeholders map[string][]string  `json:"placeholders"`
	Keys         map[string][]KeyInfo `json:"keys"`      // the placeholders' names with their words
	BasePath     string               `json:"base_path"` // the field the rows' and keys' bases lists name (eras.go)
}

// Schema returns the schema for describe() and `schedsim fields -json`:
// the rows with their words (enum docs, editor groups, ranges in words).
func Schema() SchemaDoc {
	fields := Fields()
	for i := range fields {
		f := &fields[i]
		f.RangeText = f.Range()
		f.Group = groupOf(f.Path)
		if docs, ok := enumDocs[f.Path]; ok {
			f.EnumDocs = make([]string, len(f.Enum))
			for j, v := range f.Enum {
				f.EnumDocs[j] = docs[v]
			}
		}
	}
	return SchemaDoc{Version: Version, Fields: fields, Placeholders: Placeholders(), Keys: keyInfos(), BasePath: BasePath}
}

// Range describes a row's limits in words: "1 … 256", "0s … 1s",
// "≤ 200 characters", "one of v3.8, v6.17".
func (f Field) Range() string {
	switch f.Kind {
	case KindInt:
		if len(f.Enum) > 0 {
			return "one of " + strings.Join(f.Enum, ", ")
		}
		return fmt.Sprintf("%d … %d", f.Min, f.Max)
	case KindUint:
		return fmt.Sprintf("0 … %d", f.Max)
	case KindDuration:
		return fmtDur(time.Duration(f.Min)) + " … " + fmtDur(time.Duration(f.Max))
	case KindString:
		return "≤ " + strconv.FormatInt(f.Max, 10) + " characters"
	case KindEnum:
		return "one of " + strings.Join(f.Enum, ", ")
	case KindNumber:
		return strconv.FormatFloat(f.MinF, 'g', -1, 64) + " … " + strconv.FormatFloat(f.MaxF, 'g', -1, 64)
	case KindBool:
		return "true, false"
	case KindList:
		return "≤ " + strconv.FormatInt(f.Max, 10) + " " + f.what
	case KindMap:
		if f.keyset != nil {
			return "keys: " + strings.Join(f.keyset(), ", ")
		}
	case KindName:
		return "1–32 of A-Z a-z 0-9 _ . -"
	}
	if f.keyset != nil {
		return "keys: " + strings.Join(f.keyset(), ", ")
	}
	return ""
}

// defaultText is the Default column: the value, or what absence means.
func (f Field) defaultText() string {
	switch {
	case f.required != "":
		return "required"
	case f.Default != "":
		return f.Default
	case f.Absent != "":
		return f.Absent
	}
	return "—"
}

// FieldReference is the schema as a Markdown table: FORMAT.md's generated
// field reference (TestFormatFieldReference keeps it current).
func FieldReference() string {
	var b strings.Builder
	b.WriteString("| path | kind | default | range | since | meaning |\n|---|---|---|---|---|---|\n")
	for _, f := range Fields() {
		doc := f.Doc
		if len(f.Bases) > 0 {
			doc += " (base " + strings.Join(f.Bases, ", ") + " only)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %d | %s |\n", f.Path, f.Kind,
			mdCell(f.defaultText()), mdCell(f.Range()), f.Since, mdCell(doc))
	}
	b.WriteString("\nPlaceholders: `[i]` is a list index (tasks also by name: `tasks.NAME`).\n")
	ph := Placeholders()
	for _, k := range []string{"<level>", "<flag>", "<feature>"} {
		fmt.Fprintf(&b, "`%s`: %s.\n", k, strings.Join(ph[k], ", "))
	}
	b.WriteString("On base v2.6.8 the flags are SD_BALANCE_NEWIDLE, SD_BALANCE_EXEC, SD_WAKE_IDLE, SD_WAKE_AFFINE, " +
		"SD_WAKE_BALANCE and SD_SHARE_CPUPOWER (SD_WAKE_IDLE and SD_WAKE_BALANCE exist only there), " +
		"and the features NEWIDLE_BALANCE and WAKEUP_PREEMPTION; setting a switch a base lacks is an error at its path (a flag a base lacks may be cleared: it is off there).\n")
	return b.String()
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// nameOf is the scenario spelling of a simulator enum value, "" if none.
func nameOf[T comparable](table []named[T], v T) string {
	for _, e := range table {
		if e.val == v {
			return e.name
		}
	}
	return ""
}

// LoadMetricName, SISName and NewTaskLoadName spell a resolved policy's
// values as scenario files do (policy.load_metric, ...).
func LoadMetricName(v sim.LoadMetric) string   { return nameOf(loadNames, v) }
func SISName(v sim.SIS) string                 { return nameOf(sisNames, v) }
func NewTaskLoadName(v sim.NewTaskLoad) string { return nameOf(newTaskLoads, v) }
