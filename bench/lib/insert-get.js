'use strict';
/**
 * The insert-then-get comparison of a document or key-value store (cases 7 and 9): lifespan's
 * repository against the same operations sent by hand with the driver, interleaved. Every run of a
 * side writes new ids (an insert of an existing id is a conflict); the reads then fetch the rows
 * the last write round of each side left.
 */
const { BenchSession, sessionValues } = require('./entities');
const { timing, interleave, compareRow, atMost } = require('./measure');

/**
 * @param {object} p
 * @param {object} p.ctx the job context (options, log)
 * @param {number} p.n operations per round
 * @param {object} p.repo lifespan's repository of BenchSession
 * @param {(v: object) => Promise<void>} p.rawInsert inserts one session by hand, ttl 600 s
 * @param {(id: string) => Promise<boolean>} p.rawGet reads one session by hand: found or not
 * @param {object} [p.extra] members added to each session (e.g. createdAt)
 */
async function insertThenGet({ ctx, n, repo, rawInsert, rawGet, extra = () => ({}) }) {
  const { options } = ctx;
  const unit = (round, i) => Object.assign(new BenchSession(), sessionValues(i), { id: `${round}-${i}` }, extra());
  const runsOf = { lifespan: 0, raw: 0 };
  const writes = await interleave({
    ...timing(options),
    log: ctx.log,
    prepare: (side) => {
      runsOf[side] += 1;
    },
    sides: {
      lifespan: async () => {
        for (let i = 0; i < n; i++) await repo.insert(unit(`l${runsOf.lifespan}`, i), { ttl: 600 });
      },
      raw: async () => {
        for (let i = 0; i < n; i++) await rawInsert(unit(`r${runsOf.raw}`, i));
      },
    },
  });
  const lastLife = `l${runsOf.lifespan}`;
  const lastRaw = `r${runsOf.raw}`;
  const reads = await interleave({
    ...timing(options),
    log: ctx.log,
    sides: {
      lifespan: async () => {
        for (let i = 0; i < n; i++) if (!(await repo.get(`${lastLife}-${i}`))) throw new Error('lifespan: not found');
      },
      raw: async () => {
        for (let i = 0; i < n; i++) if (!(await rawGet(`${lastRaw}-${i}`))) throw new Error('raw: not found');
      },
    },
  });
  return { writes, reads };
}

/** The two report rows of an insert-then-get comparison. */
function insertGetRows({ writes, reads }, { ctx, n, caseNo, store, label, target, insertMeasure, getMeasure }) {
  const params = { ops: n, runs: ctx.options.runs, warmup: ctx.options.warmup };
  const row = (result, measure) =>
    compareRow(result, 'lifespan', 'raw', {
      case: caseNo,
      store,
      measure,
      referenceLabel: label,
      params,
      target: atMost(target),
    });
  return [row(writes, insertMeasure), row(reads, getMeasure)];
}

module.exports = { insertThenGet, insertGetRows };
