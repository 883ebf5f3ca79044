// DOM helpers. Every text goes in as a text node or through textContent,
// value or an attribute: nothing the page shows is ever parsed as HTML
// (titles, names and error messages come from links and files).

// h creates an element. props: {class, id, text, title, attrs: {name: value},
// on: {event: handler}, dataset: {key: value}, and any element property such
// as value, checked, type, placeholder, disabled, hidden}. Children are
// elements or strings (strings become text nodes); null/false are skipped.
//
// Form controls get autocomplete="off" unless props say otherwise: the
// page's state is its link, and a control the browser may restore is one
// whose state Chromium saves into the history entry at every history
// write. Every preset, import and edit writes the link (pushState or
// replaceState); with the editor's 1081 controls after a 64-group rt-app
// import a write took 5.6-50 ms of the main thread (median 12), with none
// to save 0.4-12 ms (median 1.0); aim9-burst's 264 controls, medians 1.5
// and 0.4 ms (issue 19; docs/performance.md, round seventeen).
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (tag === "input" || tag === "select" || tag === "textarea") el.autocomplete = "off";
  for (const [k, v] of Object.entries(props || {})) {
    if (v === undefined || v === null) continue;
    switch (k) {
      case "class": el.className = v; break;
      case "text": el.textContent = v; break;
      case "attrs": for (const [a, av] of Object.entries(v)) el.setAttribute(a, String(av)); break;
      case "on": for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn); break;
      case "dataset": for (const [dk, dv] of Object.entries(v)) el.dataset[dk] = String(dv); break;
      default: el[k] = v;
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) { append(el, c); continue; }
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
}

// clear removes every child of el.
export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export const $ = (id) => document.getElementById(id);

// setText and setAttr write only what changed. The panels are refreshed
// by polls and frames whether or not anything changed, and a write of the
// same text or attribute still makes the browser restyle, repaint and
// composite the page: under a software GL that kept a core busy while a
// run was paused.
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}

export function setAttr(el, name, value) {
  if (el && el.getAttribute(name) !== value) el.setAttribute(name, value);
}

// setProp sets a property (disabled, hidden, value) only when it differs.
export function setProp(el, name, value) {
  if (el && el[name] !== value) el[name] = value;
}

// download offers text as a file through a Blob URL (no server involved).
export function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type: type || "application/octet-stream" }));
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// slug makes a file name from a title, as the Go side does for exports:
// "One tbench pair walking" -> "one-tbench-pair-walking" (at most about 40
// characters, cut between words).
export function slug(text) {
  let s = "";
  for (const word of String(text || "").toLowerCase().split(/[^a-z0-9]+/)) {
    if (!word) continue;
    if (s && s.length + 1 + word.length > 40) break;
    s += (s ? "-" : "") + word;
  }
  return s.slice(0, 40) || "scenario";
}

// inTasks runs the steps in order, each in a task of the main thread of
// its own (the first in the caller's).
export function inTasks(steps) {
  const next = (i) => {
    if (i >= steps.length) return;
    steps[i]();
    setTimeout(() => next(i + 1), 0);
  };
  next(0);
}
