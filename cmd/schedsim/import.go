package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"schedplay/interop"
	"schedplay/scenarios"
)

// cmdImport converts another tool's description into a scenario: the JSON
// goes to stdout (or -o), each thing that could not be mapped to stderr as
// "path: problem". Problems do not fail the import: exit 0 whenever a valid
// scenario came out, 2 when the input is unreadable or not what -from says.
func cmdImport(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	from := fs.String("from", "", "rtapp | lscpu | sysfs | ftrace")
	comm := fs.String("comm", "", "ftrace: import only tasks whose comm matches this regexp")
	out := fs.String("o", "", "write the scenario to this file instead of stdout")
	machine := fs.String("machine", "", "rtapp: run the workload on the machine of this scenario (FILE|PRESET)")
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	file := pos[0]
	var opt interop.RTAppOptions
	var fopt interop.FtraceOptions
	if *comm != "" {
		if *from != "ftrace" {
			return badInputf("schedsim import: -comm is for -from ftrace")
		}
		re, err := regexp.Compile(*comm)
		if err != nil {
			return badInputf("schedsim import: -comm: %v", err)
		}
		fopt.Comm = re.MatchString
	}
	switch *from {
	case "ftrace":
		if *machine != "" {
			ms, err := load(*machine, nil)
			if err != nil {
				return err
			}
			fopt.Machine = &ms.Machine
		}
	case "rtapp":
		if *machine != "" {
			ms, err := load(*machine, nil)
			if err != nil {
				return err
			}
			opt.Machine = &ms.Machine
		}
	case "lscpu", "sysfs":
		if *machine != "" {
			return badInputf("schedsim import: -machine is for -from rtapp (%s is the machine)", *from)
		}
	case "":
		return badInputf("schedsim import: -from rtapp|lscpu|sysfs|ftrace is required")
	default:
		return badInputf("schedsim import: -from %q: want rtapp, lscpu, sysfs or ftrace", *from)
	}
	limit := max(interop.MaxRTAppBytes, interop.MaxLscpuBytes)
	if *from == "ftrace" {
		limit = interop.MaxFtraceBytes
	}
	var data []byte
	if *from != "sysfs" {
		data, err = readLimited(file, limit)
		if err != nil {
			return badInput(err)
		}
	} else if st, err := os.Stat(file); err != nil || !st.IsDir() {
		return badInputf("schedsim import -from sysfs: %s: want the directory that holds devices/system/cpu (/sys on this machine)", file)
	}
	var s *scenarios.Scenario
	var probs []interop.Problem
	prefix := "rt-app: "
	switch *from {
	case "sysfs":
		prefix = "sysfs: "
		s, probs, err = interop.SysfsScenario(os.DirFS(file), file)
	case "rtapp":
		s, probs, err = interop.ImportRTAppWith(data, opt)
	case "ftrace":
		prefix = "ftrace: "
		s, probs, err = interop.ImportFtraceWith(data, fopt)
	default:
		prefix = "lscpu: "
		s, probs, err = interop.LscpuScenario(data)
	}
	for _, p := range probs {
		fmt.Fprintln(stderr, terminalSafe(p.String()))
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "internal error") {
			return internal(fmt.Errorf("%s: %v", file, err))
		}
		return badInput(fmt.Errorf("%s: %v", file, err))
	}
	// Name the scenario after its source (if the name makes a valid title).
	title := s.Title
	if err := s.Set("title", prefix+filepath.Base(file)); err != nil {
		s.Title = title
	}
	var b bytes.Buffer
	if err := json.Indent(&b, s.Canonical(), "", "  "); err != nil {
		return internal(err)
	}
	b.WriteByte('\n')
	if *out == "" || *out == "-" {
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return internal(err)
		}
		return nil
	}
	if _, err := writeOutput(*out, nil, func(w io.Writer) error { _, err := w.Write(b.Bytes()); return err }); err != nil {
		return err
	}
	m := s.Machine
	threads := 0
	for _, t := range s.Tasks {
		threads += t.Count
	}
	if len(m.CPUs) > 0 {
		fmt.Fprintf(stdout, "wrote %s: %d CPUs given per CPU, %d tasks in %d groups, %d problems\n", *out, len(m.CPUs), threads, len(s.Tasks), len(probs))
		return nil
	}
	fmt.Fprintf(stdout, "wrote %s: %d CPUs (%dx%dx%dx%dx%dx%d, %s), %d tasks in %d groups, %d problems\n", *out,
		m.Nodes*m.SocketsPerNode*m.LLCsPerSocket*m.ClustersPerLLC*m.CoresPerCluster*m.ThreadsPerCore,
		m.Nodes, m.SocketsPerNode, m.LLCsPerSocket, m.ClustersPerLLC, m.CoresPerCluster, m.ThreadsPerCore, m.Numbering,
		threads, len(s.Tasks), len(probs))
	return nil
}

// readLimited reads a whole file of at most limit bytes.
func readLimited(path string, limit int) ([]byte, error) {
	// Only regular files: a named pipe with no writer blocks the open.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v): save it to a file and give its path", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, limit)
	}
	return data, nil
}
