// Package render turns the simulator's topology, snapshots, moves and time
// series into pictures that a room can read: display lists of quads, texts
// and pixel images, computed without Ebiten so that every rule here is
// tested natively and under wasm.
//
// The package is split by what it needs to run:
//
//   - This package is plain Go: where every box, CPU cell, task block,
//     bar, arc, chart and label goes and in which colour.
//   - render/canvas composes one app.Frame into four layers (static,
//     dynamic, images, top) using this package; it is what the browser
//     draws and what tests rasterize.
//   - render/raster draws the layers in software (golang.org/x/image), for
//     golden files and for looking at a frame without a browser
//     (go test ./render/canvas -run TestPreview -preview DIR).
//   - render/ebitendraw (build tag js) hands the layers to Ebiten: one
//     DrawTriangles call per layer for the quads, labels drawn once into
//     small cached images, heatmaps uploaded only when a sample arrives,
//     and the static layer cached in an offscreen image.
//
// # Nouns
//
//   - Layout: the static geometry of one machine in one rectangle: nested
//     Boxes (NUMA node, socket, L3, L2 cluster, core) and one Cell per CPU.
//     A topology level with a single child per parent is merged into its
//     parent's box ("node 0 · socket 0 · L3"). The solver tries every
//     column count per level (at most NCPU combinations) and keeps the one
//     with the largest cells. Cells smaller than CompactBelowW x
//     CompactBelowH switch the whole machine to the compact heat view
//     (the running task's colour under a strip coloured by nr_running).
//     Talk mode draws no text under TalkMinText (18 px): a label that
//     would need less is left out rather than shrunk, the machine turns
//     compact where a cell cannot hold an 18 px label band over a run
//     block, the compact cells then carry their CPU numbers at 18 px, and
//     where even those do not fit the moves' badges name the CPUs
//     ("16→18 LLC").
//   - Cell: one logical CPU: label band, the running task's block (or the
//     idle state, shaded bluer for deeper C-states), the queue in pick
//     order, and three PELT bars on one 1024 scale (util_avg,
//     runnable_avg, load_avg split into runnable and blocked load).
//   - Glide: a move (migration, wake-up placed elsewhere, fork placed
//     away) animated in wall-clock time along an arc: colour and dash
//     pattern by cause, arc height and badge by cache distance, the CPUs
//     the decision examined outlined while it flies.
//   - Dash: how the stage is shared between the machine(s), the four
//     charts, the legend, the A/B table and, in talk mode, the status line
//     and the newest explanations.
//   - frame.Series (package frame): the time series the charts draw, sampled by package app at a
//     fixed interval of simulated time (ops/s, wake-up latency
//     percentiles, migrations by cause, per-CPU nr_running).
//
// # Colours
//
// A dark, high-contrast palette for projectors. Task colours come from the
// task id by the golden angle, so a task keeps its colour across runs and
// neighbouring ids differ; text on a task block is black or white, whichever
// contrasts more. Causes have one colour each (the page's swatches use
// CauseColor too) and, for colour-blind eyes, one line pattern each.
// nr_running runs from dark (idle) through teal (one task) to yellow,
// orange, red and pink (five or more); an idle CPU while tasks wait on other
// CPUs is magenta.
//
// # Rules the front end relies on
//
//   - Everything a layer draws lies inside the stage rectangle it was built
//     for (tested), so the front end repaints only the stage each frame.
//   - Arcs bulge towards the machine's centre, so they stay over it.
//   - Layout and colour are pure functions of their inputs: golden files
//     under testdata/ pin them (go test ./render -update rewrites them).
package render
