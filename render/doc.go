// Package render turns the simulator's topology and snapshots into pictures.
//
// The package is split by what it needs to run:
//
//   - This package (layout.go, scene.go, color.go, anim.go, label.go) is plain
//     Go. It computes where every box, CPU cell, task block and label goes and
//     in which colour, as a display list (Scene) of quads and texts. It does
//     not import ebiten, so its tests run natively and under wasm without a
//     display.
//   - render/ebitendraw (build tag js) hands a Scene to Ebiten: one
//     DrawTriangles call for all quads of a layer, text/v2 for the labels,
//     and an offscreen image caching the static layer (the topology boxes),
//     redrawn only when the layout changes.
//
// Nouns:
//
//   - Layout: the static geometry for one topology in one stage rectangle:
//     nested Boxes (NUMA node, socket, L3, L2 cluster, core) and one Cell per
//     CPU. A topology level with a single child per parent is merged into its
//     parent's box ("node 0 · socket 0 · L3"), so a small machine is not
//     drawn as five nested frames.
//   - Cell: one logical CPU: a label band (cpu id), the Run area (the
//     running task's block), the Queue area (queued tasks as smaller blocks)
//     and a utilisation bar (PELT util_avg of the CPU's cfs_rq).
//   - Scene: a display list. StaticScene draws the boxes; DynamicScene draws
//     the cells' contents for one Snapshot plus the migration glides.
//   - Glides: tasks in flight between two cells after a migration or a
//     wake-up on another CPU, animated over wall-clock time, outlined in the
//     colour of the migration's cause.
//
// Colours: task colours come from the task id by the golden angle, so a task
// keeps its colour across runs and neighbouring ids differ; text on a task
// block is black or white, whichever contrasts more.
package render
