package interop

import (
	"io/fs"
	"os"
	"os/exec"
)

func osDirFS(dir string) fs.FS { return os.DirFS(dir) }

func runLscpu() ([]byte, error) { return exec.Command("lscpu", "-p").Output() }
