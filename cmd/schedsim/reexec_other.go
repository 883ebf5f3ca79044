//go:build !linux

package main

// reexec is only needed on Linux (real runs are Linux-only).
func reexec() {}
