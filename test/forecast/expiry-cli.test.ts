/**
 * Issue 25, finding 2 (CLI): `lifespan expiry` prints the forecast of every target store in text,
 * markdown (a table with a bar per bucket) and JSON, and refuses bad --buckets / --cap in the
 * CLI's words before connecting. The built CLI as a subprocess, on a SQLite file with TTL emulated.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import knexFactory from 'knex';
import { buildCli } from '../cli/build-cli';
import { runCli } from '../cli/fixture-project';
import { connect } from '../../src';
import type { Model } from '../../src/model/types';
import { RelationalStore } from '../../src/providers/relational';

const FIXTURE = path.join(__dirname, '..', 'cli', 'fixtures', 'ttl-model.js');

function fixtureModel(): Model {
  process.env.LIFESPAN_UNDER_TEST = require.resolve('../../src/index');
  process.env.E2E_COLLECTION = 'sessions';
  process.env.E2E_TTL = '1h';
  let model: Model | undefined;
  jest.isolateModules(() => {
    model = (require(FIXTURE) as { model: Model }).model;
  });
  return model!;
}

describe('lifespan expiry', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-expiry-'));
  const file = path.join(dir, 'app.db');
  const url = `sqlite:${file}?ttl=emulate`;

  let built: ReturnType<typeof buildCli> | undefined;

  beforeAll(async () => {
    built = buildCli('expiry-forecast');
    const model = fixtureModel();
    const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: file }, useNullAsDefault: true });
    const db = await connect(model, new RelationalStore({ knex, ttl: 'emulate' }));
    await db.ensureCollections();
    const Session = model.entities[0]!.target as new () => object;
    for (const id of ['a', 'b'])
      await db.repository(Session).insert(Object.assign(new Session(), { id, payload: 'p' }));
    await db.close();
    await knex.destroy();
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    if (!built) throw new Error('the CLI is built in beforeAll');
    const done = await runCli(built.main, dir, ['expiry', '--url', url, '--models', FIXTURE, ...args], {
      LIFESPAN_UNDER_TEST: built.index,
      E2E_TTL: '1h',
      E2E_COLLECTION: 'sessions',
    });
    return { code: done.code ?? -1, out: done.stdout, err: done.stderr };
  }

  test('json: the forecast of every entity, as the library reports it', async () => {
    const { code, out, err } = await cli('--format', 'json');
    expect([code, err]).toEqual([0, '']);
    const parsed = JSON.parse(out) as {
      version: number;
      stores: Array<{ store: string; entries: Array<Record<string, unknown>> }>;
    };
    expect(parsed.version).toBe(1);
    expect(parsed.stores[0]?.store).toBe('relational');
    expect(parsed.stores[0]?.entries[0]).toMatchObject({
      entity: 'Session',
      method: 'aggregate',
      exact: true,
      read: 2,
      due: 0,
      never: 0,
    });
  });

  test('markdown: a table with a bar per bucket; text: one line of counts', async () => {
    const markdown = await cli('--format', 'markdown', '--buckets', '1h,1d');
    expect(markdown.out).toContain('# lifespan expiry');
    expect(markdown.out).toMatch(/\| within 1h \| 2 \| █{20} \|/);
    expect(markdown.out).toContain('| 1h–1d | 0 |  |');
    const text = await cli();
    expect(text.out).toContain('due, still stored: 0; within 1h: 2; 1h–1d: 0; 1d–7d: 0; 7d–30d: 0; later: 0; never: 0');
  });

  test.each([
    [['--buckets', '1d,1h'], '--buckets 1d,1h'],
    [['--buckets', '1x'], '--buckets 1x'],
    [['--cap', 'ten'], '--cap ten'],
    [['--cap', '0'], '--cap 0'],
  ])('%j is a usage error naming the flag', async (args, words) => {
    const { code, err } = await cli(...args);
    expect(code).toBe(2);
    expect(err).toContain(words);
  });
});
