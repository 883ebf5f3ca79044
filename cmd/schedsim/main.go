// Command schedsim runs schedplay scenarios headless: the same simulator
// the browser playground runs, from a terminal or a script.
//
//	schedsim run [-json] [-set path=value]... FILE|PRESET
//	schedsim sweep -vary path=v1,v2,... [-compare path=a,b,...] [-set path=value]... [-json] FILE|PRESET
//	schedsim validate FILE|PRESET
//	schedsim fields [-json]
//	schedsim link [-base URL] [-set path=value]... FILE|PRESET
//	schedsim export -format perfetto|schedstat|csv -o OUT [-interval 1ms] [-set path=value]... FILE|PRESET
//	schedsim import -from rtapp|lscpu|sysfs|ftrace [-o OUT] [-machine FILE|PRESET] FILE
//	schedsim real [-json] [-isolate] [-untraced] [-trace OUT] [-ftrace OUT] [-compare [-costs FILE]] [-set path=value]... FILE|PRESET
//	schedsim calibrate [-o FILE]
//
// FILE|PRESET is a scenario file (format: scenarios/FORMAT.md) or the name
// of a preset (schedsim help lists them). Exit status: 0 ok, 2 bad input
// (usage, files, -set, invalid scenarios; the message is on stderr as
// "path: problem" lines), 1 internal error, 3 a limit (-max-work,
// -timeout, export's -max-size) stopped the run: the metrics of what was
// simulated are still printed.
package main

import "os"

func main() {
	if realNeedsReexec(os.Args[1:]) {
		reexec()
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
