/**
 * The write path's optimised code survives a full garbage collection between units of work
 * (src/shape-anchors.ts). V8 holds the maps optimised code was compiled for weakly; when the last
 * object of a map dies, the code is thrown away ("reason: weak objects" under --trace-deopt) and
 * compiled again on the next unit: a job that writes in bursts paid for it after every full GC
 * (the bench's SQLite insert, a gc() before each side: 1.67× the raw driver's CPU, 1.11× without).
 * Run in a child process on the built package, as an application runs it: each burst of writes
 * returns before the collection, so nothing of it (the units, their entities) is left alive.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildCli } from '../cli/build-cli';

const PROBE = `
const [index, relational] = process.argv.slice(2);
const { ModelBuilder } = require(index);
const { RelationalStore } = require(relational);
const knex = require(require.resolve('knex', { paths: [index] }));
class Visit {
  constructor() {
    this.id = '';
    this.page = '';
    this.hits = 0;
    this.createdAt = new Date(0);
  }
}
/** One burst of writes: nothing of it is left alive when it returns. */
async function burst(db, first) {
  let n = first;
  for (let unit = 0; unit < 10; unit++) {
    const uow = db.unitOfWork();
    for (let i = 0; i < 500; i++) {
      const v = new Visit();
      v.id = 'v' + n++;
      v.page = '/p' + i;
      v.hits = i;
      uow.insert(v, { ttl: 60 + (i % 50) });
    }
    await uow.commit();
  }
}
(async () => {
  const model = new ModelBuilder()
    .entity(Visit, (e) =>
      e.toCollection('visits').key((x) => x.id).field((x) => x.page).field((x) => x.hits, { type: 'integer' })
        .createdAt((x) => x.createdAt).timeToLive('1h', { perWrite: true }))
    .build();
  const k = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  const db = await new RelationalStore({ knex: k, ttl: 'emulate' }).open(model);
  await db.ensureCollections();
  for (let round = 0; round < 8; round++) {
    console.log('--- round ' + round);
    await burst(db, round * 5000);
    globalThis.gc();
  }
  await db.close();
  await k.destroy();
})();
`;

/** The functions of the SQLite write path: the unit of work's queueing, binding, the executor's loop. */
const WRITE_PATH = ['insert', 'queueWrite', 'next', 'bindWrite', 'encodeStamped', 'runBatch'];

let built: ReturnType<typeof buildCli>;
let folder: string;
beforeAll(() => {
  built = buildCli('shape-anchors');
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-shape-anchors-'));
}, 180_000);
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

test('no function of the write path is thrown away for a dead map after the units of work that warmed it', () => {
  const probe = path.join(folder, 'probe.js');
  fs.writeFileSync(probe, PROBE);
  const relational = path.join(built.outDir, 'providers', 'relational', 'index.js');
  const out = execFileSync(process.execPath, ['--expose-gc', '--trace-deopt', probe, built.index, relational], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const rounds = out.split(/^--- round \d+$/m);
  expect(rounds).toHaveLength(9);
  // From the third round on: the first two warm the code up.
  const thrownAway = rounds
    .slice(3)
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes('reason: weak objects'))
    .map((line) => /<SharedFunctionInfo (\w+)>/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && WRITE_PATH.includes(name));
  expect(thrownAway).toEqual([]);
}, 120_000);
