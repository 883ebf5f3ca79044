//go:build !js

// Package headless is how the repository's tools start Chromium: which
// binary, and with which flags. The browser tests (e2e), the wasm
// benchmarks in the browser (cmd/benchcmp -engine chromium) and the cold
// starts of the page (cmd/coldstart) use it.
package headless

import (
	"os"

	"github.com/chromedp/chromedp"
)

// Path is the Chromium binary: $SCHEDPLAY_CHROMIUM, or /usr/bin/chromium
// (Debian's package, which .ci/run installs).
func Path() string {
	if p := os.Getenv("SCHEDPLAY_CHROMIUM"); p != "" {
		return p
	}
	return "/usr/bin/chromium"
}

// Missing says why Path cannot be used ("" when it can).
func Missing() string {
	p := Path()
	if _, err := os.Stat(p); err != nil {
		return p + " not found: apt-get install chromium (or set SCHEDPLAY_CHROMIUM)"
	}
	return ""
}

// Options are the flags of the toolchain notes: headless, WebGL through
// SwiftShader (--use-gl=swiftshader gives no WebGL), no sandbox (root in
// a container), no network side traffic. Callers append their own.
func Options() []chromedp.ExecAllocatorOption {
	return []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(Path()),
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
}
