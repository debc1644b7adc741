'use strict';
/**
 * Case 4: model build and explain for generated models of 100 / 1,000 / 10,000 entities (six
 * members, four TTL shapes). Timed: registering the classes on a ModelBuilder and build(); then
 * explain() for all four stores (relational emulating) and toText(). The cost per entity must stay
 * flat: the ratio of the largest model's per-entity time to the next smaller one's is reported.
 */
const { performance } = require('node:perf_hooks');
const { ModelBuilder, explain } = require('../lib/lifespan');
const { generatedEntities } = require('../lib/entities');
const { timing, interleave, atMost } = require('../lib/measure');
const { summarize, pairedRatios } = require('../lib/stats');

const FLAT_TARGET = 1.2;
const STORES = ['cosmos', 'cassandra', 'mongodb', 'relational'];

async function none(ctx) {
  const { options } = ctx;
  const sizes = [...options.modelSizes].sort((a, b) => a - b);
  const generated = new Map(sizes.map((n) => [n, generatedEntities(n, `M${n}x`)]));
  const sides = {};
  for (const n of sizes) {
    sides[`n${n}`] = async () => {
      const t0 = performance.now();
      const model = generated.get(n).register(new ModelBuilder()).build();
      const t1 = performance.now();
      const text = explain(model, { stores: STORES, relational: { ttl: 'emulate' } }).toText();
      const t2 = performance.now();
      if (model.entities.length !== n || text.length === 0) throw new Error(`model of ${n} entities came out wrong`);
      return { buildMs: t1 - t0, explainMs: t2 - t1 };
    };
  }
  const measured = await interleave({
    ...timing(options),
    log: ctx.log,
    sides,
  });
  const perEntity = (n, key) => measured[`n${n}`].metrics.map((m) => m[key] / n);
  const rows = [];
  const [small, mid, large] = sizes.length >= 3 ? sizes.slice(-3) : [sizes[0], sizes[0], sizes[sizes.length - 1]];
  for (const [key, what] of [
    ['buildMs', 'ModelBuilder: entity() ×n + build()'],
    ['explainMs', `explain() for ${STORES.length} stores + toText()`],
  ]) {
    for (const [a, b] of [
      [large, mid],
      [mid, small],
    ]) {
      if (a === b || !measured[`n${a}`] || !measured[`n${b}`]) continue;
      const sa = summarize(perEntity(a, key));
      const sb = summarize(perEntity(b, key));
      rows.push({
        case: 4,
        store: '—',
        measure: `${what}, time per entity`,
        subject: { name: `${a} entities`, stats: sa },
        reference: { name: `${b} entities`, stats: sb },
        ratio: pairedRatios(perEntity(a, key), perEntity(b, key)),
        params: { sizes, runs: options.runs, warmup: options.warmup },
        target: a === large ? atMost(FLAT_TARGET, `≤ ${FLAT_TARGET}× (flat)`) : null,
        extra: `whole ${what.split(':')[0]} for ${a} entities: ${summarize(measured[`n${a}`].metrics.map((m) => m[key])).median.toFixed(0)} ms`,
      });
    }
  }
  return rows;
}

module.exports = { title: 'model build + explain', run: { none } };
