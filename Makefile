# schedplay: build and test. Fast checks first; `make help` lists targets.
GO       ?= go
CHROMIUM ?= /usr/bin/chromium
ADDR     ?= 127.0.0.1:8080
GOROOT   := $(shell $(GO) env GOROOT)
WASMDIR  := $(GOROOT)/lib/wasm
# Packages that run natively under `go test` (e2e has its own target).
UNIT_PKGS = $$($(GO) list ./... | grep -v '/e2e$$')
# Packages that also run as wasm under node: those that do not import ebiten.
WASM_PKGS = ./sim/... ./scenarios/... ./frame ./render ./render/canvas ./render/raster ./render/glyphs ./app

.PHONY: help all soak wasm serve coldstart profile-start tierup test test-unit test-wasm test-fuzz test-hostile test-e2e screenshot screens bench bench-wasm pgo validate fmt vet check-fmt need-node need-chromium clean test-real real-kernel

# Fuzz targets (package:target:budget), each fuzzed by `make test-fuzz` (after
# its seed corpus ran as a plain test in test-unit) for its budget of executions: about 4 s each on a 2-vCPU guest (1 December:
# FuzzRandomScenario runs a simulation per input, ~80 a second; the decoders
# 1000-2000). A count, not a duration: a -fuzztime duration races Go's
# fuzzing coordinator at the deadline and fails with "context deadline
# exceeded" and no input (golang/go#51484, #75804), which a loaded CI
# machine hit twice in a row. FUZZTIME=10s (or 5000x) overrides every budget.
FUZZ_TARGETS = scenarios:FuzzDecode:2000x scenarios:FuzzDecodeLink:8000x scenarios:FuzzDecodeView:8000x scenarios:FuzzSet:8000x \
	scenarios:FuzzRandomScenario:300x interop:FuzzImportRTApp:3000x interop:FuzzImportLscpu:3000x interop:FuzzImportFtrace:8000x
FUZZTIME ?=

help:
	@echo "make wasm       build web/main.wasm (+ .gz) and copy wasm_exec.js"
	@echo "make serve      build, then serve web/ on http://$(ADDR)/"
	@echo "make test       test-unit + test-wasm + test-fuzz + test-hostile + test-e2e (what CI runs)"
	@echo "make test-unit  vet (native and js/wasm), gofmt check, go test (native)"
	@echo "make test-wasm  go test of the non-ebiten packages as wasm under node"
	@echo "make test-fuzz  every fuzz target for its budget of executions (about 4 s each; FUZZTIME overrides)"
	@echo "make test-hostile  replay testdata/hostile through the CLI and the page's import path"
	@echo "make soak SEEDS=FROM-TO  the property tests on those generator seeds (a hunt for model defects;"
	@echo "                not in make test: about 0.4 s a seed)"
	@echo "make test-e2e   build the wasm, then drive the page in headless Chromium"
	@echo "make test-real  the simulator against this machine's kernel (root, tracefs; ~70 s, alone)"
	@echo "make real-kernel regenerate docs/real-kernel.md (root, tracefs; ~12 min, alone)"
	@echo "make screenshot test-e2e that also writes docs/screenshot.png"
	@echo "make screens    the canvas at 2, 80 and 256 CPUs, normal, talk, A/B: docs/screenshot-*.png"
	@echo "make bench      benchmarks (native); BASE=<commit>: against that commit, side by side"
	@echo "make bench-wasm the sim's benchmarks as wasm under node against native, side by side"
	@echo "                (WASM_ENGINE=chromium: in a Worker of headless Chromium, the page's engine)"
	@echo "make coldstart  the page's first frame from COLD_N cold starts (fresh browser each); COLD_B=<dir>:"
	@echo "                alternated with a variant of web/ in that directory, side by side; COLD_WARM=3s:"
	@echo "                each browser shows about:blank that long first (a browser already running)"
	@echo "make profile-start  the page's main thread in PROFILE_N cold starts, by function (CPU profiles"
	@echo "                in PROFILE_DIR, the longest tasks printed)"
	@echo "make tierup     what V8's tier-up compiles in the first TIERUP_S s of a cold page, by package"
	@echo "make pgo        regenerate the PGO profile (cmd/schedsim/default.pgo) from the sim benchmarks"
	@echo "make validate   run the seed tables and regenerate docs/validation.md (a few minutes)"
	@echo "make fmt; make vet"

all: test

# The page's cold packages (importers and exporters, the scenario schema and
# decoder, the editor's model, the share link's QR code) and the label
# glyphs (a label's width is measured once per frame, its pixels drawn once
# and cached) are built without inlining: 87 kB less gzip over the wire
# (issue 19's 3.5 MB; the last two 3 kB), about 3 % slower describe(); the
# simulator and the stage's drawing keep the compiler's (and PGO's)
# inlining, so trace hashes do not move.
WASM_GCFLAGS = -gcflags=schedplay/interop=-l -gcflags=schedplay/scenarios=-l \
	-gcflags=schedplay/cmd/wasm/pagemodel=-l -gcflags=schedplay/cmd/wasm/importjob=-l \
	-gcflags=schedplay/internal/qr=-l -gcflags=schedplay/render/glyphs=-l

# The page is built against a copy of Ebiten whose built-in shaders come
# compiled (cmd/ebitenshaders: nothing else of Ebiten changes, and go.mod
# keeps Ebiten as released; the copy is passed as -modfile): the Kage
# compiler no longer runs at start on either thread nor is downloaded
# (docs/performance.md, round thirty-five). If the copy cannot be made, the
# page is built with Ebiten as released and says so.
EBITEN_SHADERS = $(CURDIR)/build/ebiten-shaders
WASM_MODFILE = modfile=; if $(GO) run ./cmd/ebitenshaders -o $(EBITEN_SHADERS); then \
	modfile=-modfile=$(EBITEN_SHADERS)/go.mod; else \
	echo "cmd/ebitenshaders failed (above): building the page with Ebiten as released, which compiles its shaders at start"; fi

wasm:
	@# Replace main.wasm only when it changed, so its precompressed copies stay fresh.
	@$(WASM_MODFILE); set -x; GOOS=js GOARCH=wasm $(GO) build $$modfile -trimpath -ldflags='-s -w' $(WASM_GCFLAGS) -o web/main.wasm.new ./cmd/wasm
	@if cmp -s web/main.wasm.new web/main.wasm; then rm web/main.wasm.new; else mv web/main.wasm.new web/main.wasm; fi
	cp "$(WASMDIR)/wasm_exec.js" web/wasm_exec.js
	@# Precompress only when the wasm changed (brotli -q 10 takes ~40 s on 2 cores).
	@# main.wasm.sha256 records which main.wasm the copies were made from:
	@# the server serves them only when it matches (by content, not mtime).
	@# The gzip copy (what Chromium gets over plain HTTP) by zopfli: still gzip,
	@# 4 % smaller than gzip -9 with one iteration, 0.4 % more with ten
	@# (~35 s; more iterations gain under 0.01 %). The two copies are made
	@# side by side (one core each).
	@if [ "$$(sha256sum < web/main.wasm | cut -c1-64)" != "$$(cut -c1-64 web/main.wasm.sha256 2>/dev/null)" ] || [ ! -f web/main.wasm.gz ]; then \
		rm -f web/main.wasm.sha256; pid=; \
		if command -v brotli >/dev/null; then \
			(brotli -q 10 -w 24 -f -o web/main.wasm.br.tmp web/main.wasm && mv web/main.wasm.br.tmp web/main.wasm.br) & pid=$$!; \
		else \
			rm -f web/main.wasm.br; echo "brotli not installed (apt-get install brotli): serving gzip only"; \
		fi; \
		if command -v zopfli >/dev/null; then \
			zopfli --i10 -c web/main.wasm > web/main.wasm.gz.tmp && mv web/main.wasm.gz.tmp web/main.wasm.gz; \
		else \
			gzip -9 -n -c web/main.wasm > web/main.wasm.gz.tmp && mv web/main.wasm.gz.tmp web/main.wasm.gz; \
			echo "zopfli not installed (apt-get install zopfli): main.wasm.gz by gzip -9, ~4 % larger"; \
		fi; gz=$$?; \
		if [ -n "$$pid" ]; then wait $$pid; else true; fi && [ $$gz = 0 ] && \
		sha256sum < web/main.wasm | cut -c1-64 > web/main.wasm.sha256; \
	fi
	@echo "web/main.wasm: $$(wc -c < web/main.wasm) bytes, gzip $$(wc -c < web/main.wasm.gz) bytes$$(test -f web/main.wasm.br && echo ", brotli $$(wc -c < web/main.wasm.br) bytes")"

serve: wasm
	$(GO) run ./cmd/serve -addr $(ADDR) -dir web

# test-real (the simulator against this machine's kernel) runs last, after
# every other test has finished (even under make -j), alone on the CPUs.
test: test-unit test-wasm test-fuzz test-hostile test-e2e
	@$(MAKE) --no-print-directory test-real

test-unit: vet check-fmt
	$(GO) test $(UNIT_PKGS)

test-wasm: need-node
	PATH="$$PATH:$(WASMDIR)" GOOS=js GOARCH=wasm $(GO) test $(WASM_PKGS)

test-fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; rest=$${t#*:}; fn=$${rest%%:*}; budget=$${rest#*:}; ft="$(FUZZTIME)"; budget=$${ft:-$$budget}; \
		echo "fuzz $$pkg $$fn $$budget"; \
		fuzz="$(GO) test -run ^$$ -fuzz ^$$fn$$ -fuzztime $$budget -fuzzminimizetime 20x ./$$pkg"; \
		corpus=$$pkg/testdata/fuzz/$$fn; before=$$(ls $$corpus 2>/dev/null | wc -l); \
		out=$$($$fuzz 2>&1) && continue; \
		echo "$$out"; \
		if [ "$$(ls $$corpus 2>/dev/null | wc -l)" != "$$before" ]; then \
			echo "$$fn found a failing input, saved under $$corpus/ (go test ./$$pkg replays it)"; exit 1; fi; \
		echo "$$fn failed without saving an input (the fuzzing engine, not the code under test): once more"; \
		$$fuzz || exit 1; \
	done

# The property tests (scenarios/property_test.go) on more generator seeds than
# CI's: every invariant after every event, determinism, and that writing a
# switch's, feature's or cost's own default changes no run. A failure names
# its seed; SEEDS=N-N reruns it alone. The five tests take about 0.4 s a
# seed on a quiet 2-vCPU guest (7 December: 1,000 seeds in 406 s, two such
# runs side by side), three times that beside other work.
SEEDS ?= 1001-2000
soak:
	SCHEDPLAY_SEEDS=$(SEEDS) $(GO) test -count=1 -timeout 0 -v -run 'TestRandom(Scenarios|HeavyScenarios|FeatureDefaults|EffectiveValues|CostDefaults)$$' ./scenarios

# The hostile-input corpus (testdata/hostile, made by its gen.py) through the
# CLI (one subprocess per input: exit status, message, CPU time, peak memory)
# and through the Go functions the page calls (natively, then as wasm when
# node is there); serially (-p 1), so timings are not shared with other tests.
test-hostile:
	SCHEDPLAY_HOSTILE=1 $(GO) test -count=1 -p 1 -run 'Hostile' ./cmd/schedsim ./app
	@if command -v node >/dev/null; then \
		SCHEDPLAY_HOSTILE=1 PATH="$$PATH:$(WASMDIR)" GOOS=js GOARCH=wasm $(GO) test -count=1 -run 'HostilePage' ./app; \
	else echo "node not installed: the page's import path ran natively only"; fi

# The timeout guards against a hang, not a slow machine: the 48 tests took
# 882 s on a 2-vCPU guest here (1 December), so 15 minutes cut a passing run.
test-e2e: need-chromium wasm
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) $(GO) test -count=1 -v -timeout 30m ./e2e

# The simulator against this machine's kernel (realkernel.TestRealVsSim,
# about 20 s): real runs need the CPUs to themselves, so make test runs this
# after everything else; without root or tracefs the test says so
# ("NO REAL-KERNEL CHECK ON THIS MACHINE: ...") and skips. Then rt-app runs
# the rt-app files the importer and exporter claim to keep (interop, SCHED_FIFO).
test-real:
	SCHEDPLAY_REAL=1 GODEBUG=asyncpreemptoff=1 $(GO) test -count=1 -p 1 -v -timeout 120s -run '^(TestRealVsSim|TestRunStepIsCPUWork|TestUntracedRun|TestRunStepEndsInUserSpace|TestSyncPairPreemptionReal|TestWakeChainPreemptionReal|TestComparisonRunsTheKernelsBaseSlice|TestNiceSharesAndTheHarness|TestRunRepeat|TestRunSyncObjects)$$' ./realkernel
	SCHEDPLAY_REAL=1 $(GO) test -count=1 -p 1 -v -timeout 300s -run '^(TestRTAppCoverAgainstRTApp|TestRTAppExportRunsUnderRTApp)$$' ./interop

# docs/real-kernel.md: calibration, then every reference scenario of
# realkernel/testdata several times on the real kernel and once in the
# simulator (cmd/realdoc). RUNS real runs per scenario.
RUNS ?= 10
real-kernel:
	GODEBUG=asyncpreemptoff=1 $(GO) run ./cmd/realdoc -runs $(RUNS) -o docs/real-kernel.md

screenshot: need-chromium wasm
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) SCHEDPLAY_SCREENSHOT=docs/screenshot.png $(GO) test -count=1 -v -run 'TestPage$$' ./e2e

screens: need-chromium wasm
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) SCHEDPLAY_SCREENS=docs $(GO) test -count=1 -v -run 'TestScreens$$' ./e2e

# The binaries (cmd/schedsim, cmd/wasm) are built with profile-guided
# optimisation from PGO_PROFILE (their default.pgo); the benchmarks use it too,
# so they measure what ships. `make pgo` regenerates it from the sim benchmarks.
PGO_PROFILE = $(CURDIR)/cmd/schedsim/default.pgo

# `make bench BASE=<commit>`: this tree against the baseline commit (a
# temporary git worktree), the same benchmarks run alternately in both,
# BENCH_COUNT times each, one ratio per benchmark (cmd/benchcmp).
# `make bench-wasm`: the same way, the sim's benchmarks as wasm under node
# against native; WASM_ENGINE=chromium runs the wasm in a Worker of headless
# Chromium instead (the page's engine). BENCH selects benchmarks (a -bench
# regexp; make reads $ itself, so BENCH='Tbench40$$|Mixed256$$').
# BENCH_CPUTIME=N (with BASE): CPU time per trace event of the sim's
# scenarios instead (TestCPUTimePerEvent, N simulators each; steadier than
# wall time on a loaded machine), with a trace-hash check.
BASE        ?=
BENCH       ?= .
BENCH_COUNT ?= 5
BENCH_PKGS   = ./sim ./render ./render/canvas ./app

bench:
ifeq ($(strip $(BASE)),)
	$(GO) test -pgo=$(PGO_PROFILE) -run '^$$' -bench '$(BENCH)' -benchmem $(BENCH_PKGS)
else
	$(GO) run ./cmd/benchcmp -base '$(BASE)' -count $(BENCH_COUNT) -bench '$(BENCH)' -pgo $(PGO_PROFILE) $(if $(BENCH_CPUTIME),-cputime $(BENCH_CPUTIME) ./sim,$(BENCH_PKGS))
endif

WASM_ENGINE ?= node
bench-wasm: $(if $(filter chromium,$(WASM_ENGINE)),need-chromium,need-node)
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) $(GO) run ./cmd/benchcmp -wasm -engine $(WASM_ENGINE) -count $(BENCH_COUNT) -bench '$(BENCH)' -pgo $(PGO_PROFILE) ./sim

COLD_N = 8
COLD_WARM = 0
coldstart: wasm need-chromium
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) $(GO) run ./cmd/coldstart -n $(COLD_N) -warm $(COLD_WARM) web $(COLD_B)

# The page's main thread in cold starts, by function: the page from a copy of
# web/ whose module keeps its names (built as make wasm does, without -s -w;
# served uncompressed), each start's CPU profile written to PROFILE_DIR (open
# a .cpuprofile in Chrome DevTools) and its longest tasks printed.
PROFILE_DIR = /tmp/schedplay-profile
PROFILE_N = 2
profile-start: need-chromium
	rm -rf $(PROFILE_DIR) && mkdir -p $(PROFILE_DIR)/web
	cp web/*.html web/*.css web/*.js $(PROFILE_DIR)/web/
	cp "$(WASMDIR)/wasm_exec.js" $(PROFILE_DIR)/web/wasm_exec.js
	@$(WASM_MODFILE); set -x; GOOS=js GOARCH=wasm $(GO) build $$modfile -trimpath $(WASM_GCFLAGS) -o $(PROFILE_DIR)/web/main.wasm ./cmd/wasm
	SCHEDPLAY_CHROMIUM=$(CHROMIUM) $(GO) run ./cmd/coldstart -n $(PROFILE_N) -profile $(PROFILE_DIR) $(PROFILE_DIR)/web

# What V8 compiles in the first TIERUP_S seconds of a cold page, by package
# and function (docs/performance.md, rounds seven and thirty-four): the page
# from a copy of web/ whose module keeps its names, in a fresh headless
# Chromium logging --trace-wasm-compilation-times, read by wasmsize -v8trace.
TIERUP_S = 25
TIERUP_ADDR = 127.0.0.1:8799
tierup: need-chromium
	rm -rf $(PROFILE_DIR) && mkdir -p $(PROFILE_DIR)/web
	cp web/*.html web/*.css web/*.js $(PROFILE_DIR)/web/
	cp "$(WASMDIR)/wasm_exec.js" $(PROFILE_DIR)/web/wasm_exec.js
	@$(WASM_MODFILE); set -x; GOOS=js GOARCH=wasm $(GO) build $$modfile -trimpath $(WASM_GCFLAGS) -o $(PROFILE_DIR)/web/main.wasm ./cmd/wasm
	$(GO) build -o $(PROFILE_DIR)/serve ./cmd/serve
	$(GO) build -o $(PROFILE_DIR)/wasmsize ./cmd/wasmsize
	$(PROFILE_DIR)/serve -addr $(TIERUP_ADDR) -dir $(PROFILE_DIR)/web > $(PROFILE_DIR)/serve.log 2>&1 & pid=$$!; sleep 1; \
	timeout $(TIERUP_S) $(CHROMIUM) --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader \
		--user-data-dir=$(PROFILE_DIR)/chromium --js-flags=--trace-wasm-compilation-times \
		http://$(TIERUP_ADDR)/ > $(PROFILE_DIR)/v8.log 2>&1; kill $$pid
	$(PROFILE_DIR)/wasmsize -v8trace $(PROFILE_DIR)/v8.log -n 20 -depth 4 $(PROFILE_DIR)/web/main.wasm

pgo:
	$(GO) test -pgo=off -run '^$$' -bench . -count 2 -cpuprofile $(CURDIR)/pgo.cpu.out -o /dev/null ./sim
	$(GO) tool pprof -proto $(CURDIR)/pgo.cpu.out > $(PGO_PROFILE)
	rm -f $(CURDIR)/pgo.cpu.out

# The seeds' tables beside the simulator's (package validation): every point
# run over three seeds plus the cost-sensitivity runs, in parallel.
validate:
	$(GO) run ./cmd/validate -o docs/validation.md

# The tree's Go files, not build/ (cmd/ebitenshaders' copy of Ebiten).
GOFILES = $$(find . -name '*.go' -not -path './build/*')

fmt:
	gofmt -w $(GOFILES)

check-fmt:
	@out=$$(gofmt -l $(GOFILES)); if [ -n "$$out" ]; then echo "gofmt needed (run make fmt):"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 GOOS=js GOARCH=wasm $(GO) vet ./...

need-node:
	@command -v node >/dev/null || { echo "node is missing (needed to run wasm tests): apt-get install nodejs"; exit 1; }

need-chromium:
	@test -x "$(CHROMIUM)" || { echo "$(CHROMIUM) is missing (needed by the browser tests): apt-get install chromium"; exit 1; }

clean:
	rm -f web/main.wasm web/main.wasm.gz web/main.wasm.br web/main.wasm.sha256 web/.main.wasm.compressed web/wasm_exec.js
	rm -rf build
