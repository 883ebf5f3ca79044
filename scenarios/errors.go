package scenarios

import (
	"errors"
	"strconv"
	"strings"
)

// Error is one problem with a scenario: where (Path, in the file's own
// vocabulary: "tasks[1].program[0].run") and what (Problem). Decode, Validate,
// Set and DecodeLink return one *Error, or several joined with errors.Join;
// their message is then one "path: problem" line per problem. Use errors.As
// to get at the first one, or Problems to list them all.
type Error struct {
	Path    string // "" for problems with the whole input (syntax, size)
	Problem string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Problem
	}
	return e.Path + ": " + e.Problem
}

// Problems flattens an error returned by this package into its *Error leaves,
// in order. Errors of other kinds are returned as an *Error with an empty Path.
func Problems(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		var e *Error
		switch x := err.(type) {
		case *Error:
			out = append(out, x)
			return
		case interface{ Unwrap() []error }:
			for _, sub := range x.Unwrap() {
				walk(sub)
			}
			return
		case *FileError:
			walk(x.Err)
			return
		}
		if errors.As(err, &e) {
			out = append(out, e)
			return
		}
		out = append(out, &Error{Problem: err.Error()})
	}
	walk(err)
	return out
}

// FileError is returned by Load: every line of Err's message is prefixed
// with the file (or preset) name, as compilers report "file: path: problem".
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string {
	lines := strings.Split(e.Err.Error(), "\n")
	for i, l := range lines {
		lines[i] = e.File + ": " + l
	}
	return strings.Join(lines, "\n")
}

func (e *FileError) Unwrap() error { return e.Err }

// maxReported caps the problems one call reports: a 256 KiB file of broken
// steps would otherwise print thousands of lines. The last line says how many
// more there were.
const maxReported = 25

// problems collects *Errors in order.
type problems struct {
	list []*Error
	more int
}

func (p *problems) add(path, problem string) {
	if len(p.list) >= maxReported {
		p.more++
		return
	}
	p.list = append(p.list, &Error{Path: path, Problem: problem})
}

func (p *problems) ok() bool { return len(p.list) == 0 }

func (p *problems) err() error {
	if len(p.list) == 0 {
		return nil
	}
	if len(p.list) == 1 && p.more == 0 {
		return p.list[0]
	}
	errs := make([]error, 0, len(p.list)+1)
	for _, e := range p.list {
		errs = append(errs, e)
	}
	if p.more > 0 {
		errs = append(errs, &Error{Problem: "... and " + strconv.Itoa(p.more) + " more problems"})
	}
	return errors.Join(errs...)
}

// Path building. Object keys that are not plain identifiers are quoted, so a
// path always reads back unambiguously: policy.features["WAKE AFFINE"].

func join(path, key string) string {
	if !plainKey(key) {
		if len(key) > 64 {
			key = strings.ToValidUTF8(key[:64], "") + "..."
		}
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return path + "[" + strconv.Itoa(i) + "]" }

func plainKey(k string) bool {
	if k == "" || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
