package scenarios

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// node is a field's place in the schema tree that Decode, Set and Get walk.
type node struct {
	row  *Field
	kids map[string]*node // fixed keys
	wild *node            // a <placeholder> key
	elem *node            // a list's [i]
	list []*node          // kids, wild and elem in table order
}

type schemaTables struct {
	rows  []Field
	root  *node
	index map[string]int // a row's Path -> its index in rows (fieldRow)
}

var schema = sync.OnceValue(func() *schemaTables {
	t := &schemaTables{rows: fieldRows()}
	t.root = &node{row: &Field{Kind: KindObject}, kids: map[string]*node{}}
	t.index = make(map[string]int, len(t.rows))
	for i := range t.rows {
		f := &t.rows[i]
		if _, dup := t.index[f.Path]; !dup {
			t.index[f.Path] = i // the first, as a scan finds
		}
		parent, last := t.root, ""
		toks := patternTokens(f.Path)
		for j, tok := range toks {
			if j == len(toks)-1 {
				last = tok
				break
			}
			parent = parent.child(tok)
			if parent == nil {
				panic("scenarios: schema row " + f.Path + " comes before its parent")
			}
		}
		n := &node{row: f, kids: map[string]*node{}}
		switch {
		case last == "[i]":
			parent.elem = n
		case strings.HasPrefix(last, "<"):
			parent.wild = n
		default:
			parent.kids[last] = n
		}
		parent.list = append(parent.list, n)
	}
	// A repeat block's body holds steps: its [i] is the step node itself
	// (the only cycle in the tree; Decode and Set bound it by MaxRepeatDepth).
	stepNode := t.root.kids["tasks"].elem.kids["program"].elem
	stepNode.kids["program"].elem = stepNode
	return t
})

// child is the node a pattern token leads to.
func (n *node) child(tok string) *node {
	switch {
	case tok == "[i]":
		return n.elem
	case strings.HasPrefix(tok, "<"):
		return n.wild
	}
	return n.kids[tok]
}

// patternTokens splits "tasks[i].program[j].run" into tasks, [i], program,
// [i], run.
func patternTokens(path string) []string {
	var out []string
	for _, part := range strings.Split(path, ".") {
		if open := strings.IndexByte(part, '['); open >= 0 {
			out = append(out, part[:open], "[i]")
			continue
		}
		out = append(out, part)
	}
	return out
}

// Fields returns the schema, in table order (a copy).
func Fields() []Field {
	rows := schema().rows
	out := make([]Field, len(rows))
	copy(out, rows)
	return out
}

// fieldRow returns the row of a pattern; it panics for an unknown pattern
// (rows are looked up by the code that wrote them).
func fieldRow(pattern string) *Field {
	t := schema()
	if i, ok := t.index[pattern]; ok {
		return &t.rows[i]
	}
	panic("scenarios: no schema row " + pattern)
}

// fill writes the defaults of n's fields (and of its objects' fields) into
// a fresh object.
func fill(n *node, s *Scenario, k keys) {
	for _, c := range n.list {
		f := c.row
		switch {
		case f.at != nil && f.Default != "" && !f.lazy:
			_ = f.at(s, k).set(setter{f.Path}, f.Default, f.Default)
		case f.Kind == KindObject && c != n.elem && c != n.wild:
			fill(c, s, k)
		}
	}
}

// node decodes raw into the part of s that n describes.
func (d *decoder) node(n *node, raw json.RawMessage, path string, s *Scenario, k keys) {
	f := n.row
	switch f.Kind {
	case KindObject, KindMap:
		if f.enter != nil {
			f.enter(s, k)
		}
		seen := map[*node]bool{}
		d.object(raw, path, func(key string, val json.RawMessage, p string) {
			c, ck := n.kids[key], k
			if c == nil && n.wild != nil {
				c, ck = n.wild, k.withName(key)
			}
			if c == nil {
				d.unknown(p)
				return
			}
			seen[c] = true
			d.node(c, val, p, s, ck)
		})
		if d.ok() {
			for _, c := range n.list {
				if c.row.required != "" && !seen[c] {
					d.add(join(path, lastKey(c.row.Path)), c.row.required)
				}
			}
		}
	case KindList:
		if f.Path == nestedProgram && k.ni >= len(k.idx) {
			d.add(path, fmt.Sprintf("repeat blocks nest more than %d deep", MaxRepeatDepth))
			return
		}
		if f.enter != nil {
			f.enter(s, k)
		}
		d.array(raw, path, int(f.Max), f.what, func(i int, val json.RawMessage, p string) {
			f.elem(s, k, i)
			ek := k.withIndex(i)
			fill(n.elem, s, ek)
			d.node(n.elem, val, p, s, ek)
		})
	default:
		sl := f.at(s, k)
		sl.decode(d, raw, path)
		v, _ := sl.get()
		if f.notEmpty != "" && v == "" && kindOf(raw) == '"' {
			d.add(path, f.notEmpty)
		}
		if f.trueOnly != "" && v == "false" && kindOf(raw) == 't' {
			d.add(path, f.trueOnly)
		}
	}
}

func lastKey(pattern string) string {
	toks := patternTokens(pattern)
	return toks[len(toks)-1]
}

// walk finds the node of a concrete path ("tasks.client.program[0].run",
// "policy.sd_flags.MC.SD_BALANCE_WAKE") and the values of its placeholders.
// Tasks are addressed by index or by name (the longest matching name wins:
// names may contain dots). For Set (grow), an index equal to the length of
// a list that appends adds an element.
func (s *Scenario) walk(path string, grow bool) (*node, keys, error) {
	st := setter{path}
	var k keys
	if after, ok := strings.CutPrefix(path, "tasks."); ok {
		best := -1
		for i := range s.Tasks {
			n := s.Tasks[i].Name
			if n == "" || (after != n && !strings.HasPrefix(after, n+".")) {
				continue
			}
			if best < 0 || len(n) > len(s.Tasks[best].Name) {
				best = i
			}
		}
		if best < 0 {
			name, _, _ := strings.Cut(after, ".")
			return nil, k, st.err(fmt.Sprintf("no task named %s", quote(name)))
		}
		path = "tasks[" + strconv.Itoa(best) + "]" + after[len(s.Tasks[best].Name):]
	}
	n := schema().root
	for _, part := range strings.Split(path, ".") {
		key, idx, hasIdx := part, "", false
		if open := strings.IndexByte(part, '['); open >= 0 && strings.HasSuffix(part, "]") {
			key, idx, hasIdx = part[:open], part[open+1:len(part)-1], true
		}
		c := n.kids[key]
		if c == nil && n.wild != nil && key != "" {
			c, k = n.wild, k.withName(key)
		}
		if c == nil {
			return nil, k, st.unknown()
		}
		n = c
		if !hasIdx {
			continue
		}
		f := n.row
		i, err := strconv.Atoi(idx)
		if n.elem == nil || err != nil || i < 0 || strconv.Itoa(i) != idx {
			return nil, k, st.unknown()
		}
		if k.ni >= len(k.idx) {
			return nil, k, st.err(fmt.Sprintf("repeat blocks nest more than %d deep", MaxRepeatDepth))
		}
		if grow && f.own != nil {
			f.own(s, k)
		}
		length := f.length(s, k)
		switch {
		case i < length:
		case i == length && f.appends && grow:
			f.elem(s, k, i)
			fill(n.elem, s, k.withIndex(i))
		default:
			return nil, k, st.err(fmt.Sprintf(f.rangeMsg, i, length))
		}
		k = k.withIndex(i)
		n = n.elem
	}
	if n == schema().root {
		return nil, k, st.unknown()
	}
	return n, k, nil
}

func (s *Scenario) set(path, value string) error {
	n, k, err := s.walk(path, true)
	if err != nil {
		return err
	}
	st := setter{path}
	f := n.row
	if f.at != nil {
		if f.onSet != nil {
			if err := f.onSet(s, k, value); err != nil {
				if e, ok := err.(*Error); ok {
					e.Path = path
				}
				return err
			}
		}
		def := f.Default
		if f.lazy {
			def = "" // normalize fills it where it means something
		}
		return f.at(s, k).set(st, value, def)
	}
	// A container: "" empties it (its defaults come back), JSON replaces it.
	f.reset(s, k)
	fill(n, s, k)
	if value == "" {
		return nil
	}
	raw, err := single([]byte(value))
	if err != nil {
		return st.err(err.Error())
	}
	d := &decoder{}
	d.node(n, raw, path, s, k)
	return d.err()
}

// Get returns a field's value as Set takes it: "5s", "40", "true",
// "cpu_buddies", JSON for an object or a list, and "" for a field that is
// absent (its default is the simulator's or the base's own; Set(path, "")
// makes it absent again). Paths are those of Set.
func (s *Scenario) Get(path string) (string, error) {
	if len(path) > 256 {
		return "", &Error{Path: shorten(path), Problem: "path too long"}
	}
	n, k, err := s.walk(path, false)
	if err != nil {
		return "", err
	}
	f := n.row
	if f.at != nil {
		v, _ := f.at(s, k).get()
		return v, nil
	}
	b, err := json.Marshal(f.val(s, k))
	if err != nil || string(b) == "null" {
		return "", nil
	}
	return string(b), nil
}

// intLimits are a row's integer range, for resolve.
func intLimits(pattern string) (lo, hi int) {
	f := fieldRow(pattern)
	return int(f.Min), int(f.Max)
}

// durLimits are a row's duration range, for resolve.
func durLimits(pattern string) (lo, hi time.Duration) {
	f := fieldRow(pattern)
	return time.Duration(f.Min), time.Duration(f.Max)
}

// textLimit is a row's length limit in characters, for resolve.
func textLimit(pattern string) int { return int(fieldRow(pattern).Max) }
