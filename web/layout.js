// Narrow layouts (phones, tablets: the same query as style.css): the
// editor and the panel are drawers over the machine. This keeps
// body.narrow in step with the query, opens and closes the panel drawer,
// lets only one drawer be open at a time, closes a drawer with Escape or
// its own close button, and gives the header a play/pause button (the
// panel's are inside the drawer).
"use strict";

import { $, setAttr, setText } from "./dom.js";

export const NARROW = "(max-width: 1024px)";

export function wireLayout() {
  const mq = window.matchMedia(NARROW);
  const body = document.body;
  const panelBtn = $("open-panel");
  const editorBtn = $("toggle-editor");
  const editorOpen = () => !body.classList.contains("no-editor");
  const setPanel = (open) => {
    body.classList.toggle("panel-open", open);
    panelBtn.setAttribute("aria-expanded", open ? "true" : "false");
    panelBtn.textContent = open ? "Close controls" : "Controls";
  };
  const closeEditor = () => { if (editorOpen()) editorBtn.click(); };
  const narrow = () => {
    body.classList.toggle("narrow", mq.matches);
    editorBtn.textContent = mq.matches ? (editorOpen() ? "Close editor" : "Edit") : (editorOpen() ? "Hide editor" : "Show editor");
    if (!mq.matches) setPanel(false);
  };
  mq.addEventListener("change", narrow);
  setPanel(false);
  narrow();
  panelBtn.addEventListener("click", () => {
    const open = !body.classList.contains("panel-open");
    if (open && mq.matches) closeEditor();
    setPanel(open);
  });
  // The editor's own button (loader.js) toggles body.no-editor; on a narrow
  // screen opening it closes the panel, and the label says what it does.
  editorBtn.addEventListener("click", () => {
    if (mq.matches && editorOpen()) setPanel(false);
    narrow();
  });
  for (const b of document.querySelectorAll(".drawer-close")) {
    b.addEventListener("click", () => {
      const opener = $(b.dataset.closes);
      if (opener === panelBtn) setPanel(false);
      else closeEditor();
      opener.focus();
    });
  }
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !mq.matches) return;
    if (body.classList.contains("panel-open")) { setPanel(false); panelBtn.focus(); e.preventDefault(); }
    else if (editorOpen()) { closeEditor(); editorBtn.focus(); e.preventDefault(); }
  });
}

// syncPlayToggle shows the header's play/pause button as the session is.
export function syncPlayToggle(playing) {
  const b = $("play-toggle");
  if (!b) return;
  setText(b, playing ? "❚❚" : "▶");
  setAttr(b, "aria-label", playing ? "pause" : "play");
  setAttr(b, "aria-pressed", playing ? "false" : "true");
}

// wireTooltip shows what is under the pointer on the canvas (a task, a CPU:
// schedplay.tooltip) next to it: on hover with a mouse, on a tap with a
// finger (a second tap elsewhere, or off the machine, hides it).
export function wireTooltip(api) {
  const tip = $("tip");
  let pending = null;
  const show = (x, y) => {
    const text = api.tooltip ? api.tooltip(x, y) : "";
    if (!text) { tip.hidden = true; return; }
    tip.textContent = text;
    tip.hidden = false;
    const w = tip.offsetWidth, hgt = tip.offsetHeight;
    tip.style.left = Math.max(4, Math.min(x + 14, innerWidth - w - 4)) + "px";
    tip.style.top = (y + 18 + hgt < innerHeight ? y + 18 : Math.max(4, y - hgt - 12)) + "px";
  };
  const onCanvas = (e) => e.target && e.target.tagName === "CANVAS";
  document.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse") return;
    if (!onCanvas(e)) { tip.hidden = true; return; }
    if (pending) return;
    pending = requestAnimationFrame(() => { pending = null; show(e.clientX, e.clientY); });
  });
  document.addEventListener("pointerdown", (e) => {
    if (e.pointerType === "mouse") return;
    if (onCanvas(e)) show(e.clientX, e.clientY);
    else tip.hidden = true;
  });
  document.addEventListener("pointerleave", () => { tip.hidden = true; });
}
