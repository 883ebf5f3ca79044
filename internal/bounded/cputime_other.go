//go:build !linux

package bounded

import "time"

// processTime is not available here (wasm, other systems): Measure falls
// back to wall time.
func processTime() (time.Duration, bool) { return 0, false }
