//go:build linux

package main

import (
	"os"
	"syscall"
)

// reexec runs this binary again with GODEBUG=asyncpreemptoff=1 added, for
// schedsim real and calibrate; it returns only if that fails.
func reexec() {
	exe, err := os.Executable()
	if err != nil {
		return
	}
	env := os.Environ()
	godebug := "asyncpreemptoff=1"
	for i, kv := range env {
		if v, ok := cutPrefix(kv, "GODEBUG="); ok {
			if v != "" {
				godebug = v + "," + godebug
			}
			env = append(env[:i], env[i+1:]...)
			break
		}
	}
	env = append(env, "GODEBUG="+godebug, "SCHEDSIM_NO_REEXEC=1")
	syscall.Exec(exe, os.Args, env)
}

func cutPrefix(s, p string) (string, bool) {
	if len(s) >= len(p) && s[:len(p)] == p {
		return s[len(p):], true
	}
	return s, false
}
