// Durations as scenario files write them (Go's time.ParseDuration syntax):
// "20us", "1.5ms", "2s", "1m30s". Values are nanoseconds (JS numbers hold
// every duration a scenario allows exactly).
"use strict";

const UNITS = { ns: 1, us: 1e3, "µs": 1e3, "μs": 1e3, ms: 1e6, s: 1e9, m: 60e9, h: 3600e9 };

// parseDuration returns the nanoseconds of s, or null if s is not a
// duration ("0" alone is allowed, as in Go).
export function parseDuration(s) {
  s = String(s || "").trim();
  if (s === "0") return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0, i = 0;
  if (!s) return null;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) return null;
    total += parseFloat(m[1]) * UNITS[m[2]];
    i = re.lastIndex;
  }
  return Math.round(total);
}

// fmtDuration writes ns in the largest unit that keeps it whole.
export function fmtDuration(ns) {
  ns = Math.round(ns);
  if (ns === 0) return "0s";
  if (ns % 1e9 === 0) return ns / 1e9 + "s";
  if (ns % 1e6 === 0) return ns / 1e6 + "ms";
  if (ns % 1e3 === 0) return ns / 1e3 + "us";
  return ns + "ns";
}
