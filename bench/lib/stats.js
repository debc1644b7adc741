'use strict';
/** Order statistics of a handful of samples: median and spread (min–max and the interquartile range). */

function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

/** { n, median, min, max, q1, q3 } of the samples. */
function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    median: quantile(sorted, 0.5),
    min: sorted[0] ?? NaN,
    max: sorted[sorted.length - 1] ?? NaN,
    q1: quantile(sorted, 0.25),
    q3: quantile(sorted, 0.75),
  };
}

/** Ratios of paired runs (run i of one side over run i of the other): drift between rounds cancels out. */
function pairedRatios(subject, reference) {
  const n = Math.min(subject.length, reference.length);
  const ratios = [];
  for (let i = 0; i < n; i++) ratios.push(subject[i] / reference[i]);
  return summarize(ratios);
}

/** Milliseconds as a short human figure: 812 µs, 12.3 ms, 1.24 s. */
function formatMs(ms) {
  if (!Number.isFinite(ms)) return '—';
  if (ms < 1) return `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 0)} µs`;
  if (ms < 10) return `${ms.toFixed(2)} ms`;
  if (ms < 1000) return `${ms.toFixed(1)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

function formatRange(stats) {
  return `${formatMs(stats.median)} (${formatMs(stats.min)}–${formatMs(stats.max)})`;
}

function formatRatio(value) {
  if (!Number.isFinite(value)) return '—';
  return `${value < 10 ? value.toFixed(2) : value.toFixed(1)}×`;
}

module.exports = { summarize, pairedRatios, formatMs, formatRange, formatRatio };
