'use strict';
/**
 * `node bench/tools/sqlite-insert-harness.js --side=lifespan|raw|both [--rounds=6] [--rows=20000]
 *  [--unit=500] [--cpu] [--warmup=2] [--keep]`: case 1's SQLite insert work (bench/cases/write.js, `sqlite`),
 * alone, so that its cost per row can be measured without the bench's other sides and cases.
 *
 * Each round empties the table (untimed) and inserts `rows` rows in units of `unit`: lifespan's
 * side through the built dist/ (`db.unitOfWork().insert(entity, { ttl }).commit()`, the same
 * lifespanInserts as the bench), the raw side with better-sqlite3's prepared statement inside
 * handle.transaction(), exactly as the bench writes it. Both run on a temp-file database with the
 * bench's pragmas (WAL, synchronous=NORMAL; bench/lib/connections.js).
 *
 * Instruction counts (start-up cancels out in the difference of two runs):
 *   nice -n 19 valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/tmp/a2 \
 *     node bench/tools/sqlite-insert-harness.js --side=lifespan --rounds=2
 *   … the same with --rounds=6 into /tmp/a6; (Ir(a6) - Ir(a2)) / (4 × rows) = instructions per row.
 *   callgrind_annotate --inclusive=yes /tmp/a6 gives per-function inclusive costs; JIT code shows as
 *   bare addresses: run node with --perf-basic-prof and look them up in /tmp/perf-<pid>.map. TurboFan
 *   compiles on helper threads, which callgrind counts too: its share (v8::internal::compiler::*)
 *   differs by ±100–250 instructions/row between runs, so compare without it, or over 2 vs 10 rounds.
 *
 * CPU time (a shared machine: never wall-clock): `--side=both --cpu --rounds=40` alternates the
 * sides round by round (which side starts alternates too) and prints each side's median and total
 * process.cpuUsage() (user + system) per round, and their ratio, after `warmup` rounds per side.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const conn = require('../lib/connections');
const { openBenchStore } = require('../lib/bench-store');
const { lifespanInserts, rawSqliteUnit } = require('../cases/write');

function parseArgs(argv) {
  const args = { side: 'both', rounds: 6, rows: 20000, unit: 500, cpu: false, keep: false, warmup: 2 };
  for (const a of argv) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (!m) throw new Error(`unknown argument ${a}`);
    const [, name, value] = m;
    if (name === 'side') args.side = value;
    else if (['rounds', 'rows', 'unit', 'warmup'].includes(name)) args[name] = Number(value);
    else if (name === 'cpu') args.cpu = true;
    else if (name === 'keep') args.keep = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (!['lifespan', 'raw', 'both'].includes(args.side)) throw new Error('--side is lifespan, raw or both');
  return args;
}

function cpuMicros() {
  const { user, system } = process.cpuUsage();
  return user + system;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-insert-'));
  const info = { dir, mode: 'file' };
  const knex = conn.sqliteKnex(info, 'write');
  const db = await openBenchStore(knex);
  const handle = await conn.sqliteHandle(knex);
  const unitTx = rawSqliteUnit(handle);
  const { rows, unit } = args;
  const sides = {
    lifespan: () => lifespanInserts(db, rows, unit),
    raw: async () => {
      for (let start = 0; start < rows; start += unit) unitTx.immediate(start, Math.min(rows, start + unit));
    },
  };
  const clear = () => handle.exec('DELETE FROM "bench_sessions"');
  const count = () => handle.prepare('SELECT count(*) AS n FROM "bench_sessions"').get().n;

  try {
    if (!args.cpu) {
      // Instruction counting: `rounds` rounds of one side (or both, one after the other).
      const names = args.side === 'both' ? ['lifespan', 'raw'] : [args.side];
      for (let r = 0; r < args.rounds; r++) {
        for (const name of names) {
          clear();
          await sides[name]();
          if (count() !== rows) throw new Error(`${name} wrote ${count()} rows, not ${rows}`);
        }
      }
      process.stdout.write(`${names.join('+')}: ${args.rounds} rounds of ${rows} rows done\n`);
      return;
    }
    // CPU time, interleaved: warm-up rounds first (not reported), then alternating sides.
    const names = args.side === 'both' ? ['lifespan', 'raw'] : [args.side];
    const spent = Object.fromEntries(names.map((n) => [n, []]));
    for (let r = 0; r < args.warmup + args.rounds; r++) {
      const order = r % 2 ? [...names].reverse() : names;
      for (const name of order) {
        clear();
        const before = cpuMicros();
        await sides[name]();
        const used = cpuMicros() - before;
        if (count() !== rows) throw new Error(`${name} wrote ${count()} rows, not ${rows}`);
        if (r >= args.warmup) spent[name].push(used);
      }
    }
    const summary = {};
    for (const name of names) {
      const xs = spent[name];
      summary[name] = {
        medianMs: median(xs) / 1000,
        totalMs: xs.reduce((a, b) => a + b, 0) / 1000,
        nsPerRow: (median(xs) * 1000) / rows,
      };
    }
    if (summary.lifespan && summary.raw) {
      summary.ratio = {
        median: summary.lifespan.medianMs / summary.raw.medianMs,
        total: summary.lifespan.totalMs / summary.raw.totalMs,
      };
    }
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } finally {
    await db.close();
    await knex.destroy();
    if (!args.keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
