'use strict';
/**
 * Side-by-side timing. Every side warms up, then the timed rounds run each side once per round in
 * an order that alternates (A B C, C B A, ...), so drift over the run (page cache, autovacuum, JIT,
 * a busy neighbour on a shared machine) falls on every side alike. Ratios are taken per round.
 */
const { performance } = require('node:perf_hooks');
const { pairedRatios, summarize } = require('./stats');

const collectGarbage = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/** Fast comparisons repeat more: rounds until about budgetMs, up to MAX_ROUNDS (never fewer than `runs`). */
const MAX_ROUNDS = 25;

/** The timing settings of the run's options, for interleave(). */
function timing(options) {
  return { runs: options.runs, warmup: options.warmup, only: options.sides, budgetMs: options.roundBudget };
}

/**
 * sides: { name: async (round) => metrics | undefined }. prepare(name, round): untimed, before
 * every run (warm-up included), e.g. emptying the table. Returns { name: { times: ms[], metrics: [] } }.
 * `runs` is the least number of timed rounds; when the warm-up round was short, more rounds run
 * (as many as fit in budgetMs, at most MAX_ROUNDS), which steadies the fast cases.
 */
async function interleave({ sides, runs, warmup, only, budgetMs = 0, prepare = async () => {}, log = () => {} }) {
  // --sides (for profiling one side alone) runs a subset; rows whose sides did not run are dropped.
  const names = Object.keys(sides).filter((n) => !only || only.includes(n));
  const result = Object.fromEntries(names.map((n) => [n, { times: [], metrics: [] }]));
  // Nothing to time (--sides left out every side of this comparison): no empty rounds.
  if (names.length === 0) return result;
  let roundMs = Infinity;
  for (let w = 0; w < warmup; w++) {
    const start = performance.now();
    for (const name of names) {
      await prepare(name, -1 - w);
      await sides[name](-1 - w);
    }
    roundMs = performance.now() - start;
  }
  const rounds = Math.max(runs, Math.min(MAX_ROUNDS, Math.floor(budgetMs / roundMs)));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      await prepare(name, round);
      collectGarbage();
      const start = performance.now();
      const metrics = await sides[name](round);
      const elapsed = performance.now() - start;
      result[name].times.push(elapsed);
      result[name].metrics.push(metrics);
    }
    log(`round ${round + 1}/${rounds}: ${order.map((n) => `${n} ${result[n].times[round].toFixed(1)} ms`).join(', ')}`);
  }
  return result;
}

/**
 * interleave() with the `apart` sides (the query builders, ten times slower than the driver on
 * SQLite) in rounds of their own against `reference`: in one interleave with the fast sides they
 * made every round slow, so the comparison the targets judge got the fewest rounds (5 where 25
 * fit in the budget). Returns the fast sides as interleave does, and each apart side with the
 * reference's times of its own rounds under `${reference}@${side}`.
 */
async function interleaveApart({ sides, apart, reference, ...rest }) {
  const fast = Object.fromEntries(Object.entries(sides).filter(([name]) => !apart.includes(name)));
  const measured = await interleave({ ...rest, sides: fast });
  for (const name of apart.filter((n) => sides[n] && (!rest.only || rest.only.includes(n)))) {
    const own = await interleave({ ...rest, sides: { [name]: sides[name], [reference]: sides[reference] } });
    if (own[name]) measured[name] = own[name];
    if (own[reference]) measured[`${reference}@${name}`] = own[reference];
  }
  return measured;
}

/** A comparison row: subject against reference, times summarized, ratio per round. */
function compareRow(measured, subject, reference, fields) {
  const s = measured[subject];
  const r = measured[reference];
  if (!s || !r) return null;
  return {
    ...fields,
    subject: { name: fields.subjectLabel ?? subject, stats: summarize(s.times) },
    reference: { name: fields.referenceLabel ?? reference, stats: summarize(r.times) },
    ratio: pairedRatios(s.times, r.times),
  };
}

/** Target "ratio ≤ limit": the verdict uses the median paired ratio. */
function atMost(limit, text = `≤ ${limit}×`) {
  return { text, limit, kind: 'max' };
}

function verdict(row) {
  if (!row.target) return null;
  if (row.target.kind === 'max') return row.ratio ? row.ratio.median <= row.target.limit : null;
  if (row.target.kind === 'bool') return row.target.met;
  return null;
}

module.exports = { timing, interleave, interleaveApart, compareRow, atMost, verdict };
