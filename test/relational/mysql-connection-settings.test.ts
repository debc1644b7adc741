/**
 * MariaDB/MySQL reads decode the same values whatever the user's mysql2 connection settings say
 * (zone, dateStrings, big numbers, decimals, JSON, typeCast, rowsAsArray, nestTables), and they
 * call mysql2's positional `execute(sql, values, cb)`: its options-object form builds a fresh
 * hidden class per call (docs/performance.md, "Hot paths"), so it is kept for the settings only
 * that form can override (nestTables, typeCast: false, a typeCast function).
 */
import 'reflect-metadata';
import type { Knex } from 'knex';
import { Entity, Field, Key, ModelBuilder, type StoreContext } from '../../src';
import { describeStore } from '../harness/stores';
import { knexFor } from '../harness/relational';
import { connectRelational, dropTables, prefixFor } from './support/engines';
import { Sample, make } from './support/models';

@Entity('ledger')
class Ledger {
  @Key() id = 0n;
  @Field() at = new Date(0);
  @Field({ type: 'integer' }) whole = 0;
  @Field({ type: 'string', nullable: true }) note: string | null = null;
}

/** Settings that change what mysql2 hands back for a column, and whether each still reads positionally. */
const SETTINGS: readonly { name: string; connection: Record<string, unknown>; positional: boolean }[] = [
  {
    name: 'zone +05:00, Date objects, no big numbers, pass-through typeCast',
    connection: { timezone: '+05:00', dateStrings: false, supportBigNumbers: false, typeCast: passThrough },
    positional: false,
  },
  { name: 'a typeCast that reads BLOBs as text', connection: { typeCast: blobsAsText }, positional: false },
  {
    name: 'local zone, rowsAsArray, decimalNumbers, jsonStrings, big number strings',
    connection: {
      timezone: 'local',
      rowsAsArray: true,
      decimalNumbers: true,
      jsonStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
    },
    positional: true,
  },
  { name: 'dateStrings, Z zone', connection: { dateStrings: true, timezone: 'Z' }, positional: true },
  { name: 'nestTables: true', connection: { nestTables: true }, positional: false },
  { name: "nestTables: '_'", connection: { nestTables: '_' }, positional: false },
  { name: 'typeCast: false', connection: { typeCast: false }, positional: false },
];

function passThrough(_field: unknown, next: () => unknown): unknown {
  return next();
}

/** A common typeCast: a `binary` member's bytes would come back re-encoded (0xff as two bytes). */
function blobsAsText(field: { type: string; string: () => string | null }, next: () => unknown): unknown {
  return field.type === 'BLOB' ? field.string() : next();
}

/** A DATETIME read as a Date in the connection's zone (+05:00) would move by five hours. */
const AT = new Date(Date.UTC(2026, 2, 8, 2, 30, 0, 250));
const BEYOND_2_53 = 2n ** 53n + 1n;

const samples = [
  make(Sample, {
    id: 'odd "text" \u00e9\u{1F600} \\ % _ \'',
    text: 'line\nbreak\ttab \u0000 nul, emoji \u{1F600}, quote \' " `',
    real: 0.1 + 0.2,
    whole: -Number.MAX_SAFE_INTEGER,
    big: -(2n ** 63n),
    flag: true,
    at: AT,
    doc: { deep: [1, 'two', null, { three: 3.5 }] },
    bytes: Buffer.from([0, 255, 10, 13]),
    ref: '7d444840-9dc0-11d1-b245-5ffdce74fad2',
    note: null,
    extra: null,
  }),
  make(Sample, {
    id: 'plain',
    text: 'x',
    real: -1e300,
    whole: 0,
    big: 2n ** 63n - 1n,
    flag: false,
    at: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
    doc: [],
    bytes: Buffer.alloc(0),
    note: 'n',
    extra: { a: 1 },
  }),
  make(Sample, { id: 'big', text: 'x', big: BEYOND_2_53, at: new Date(Date.UTC(1000, 0, 1)) }),
];

describeStore('mariadb', 'MariaDB/MySQL reads under the connection settings of the user', () => {
  describe.each(SETTINGS)('$name', ({ connection, positional }) => {
    const model = new ModelBuilder()
      .entity(Sample, (e) => e.toCollection(`${prefixFor('mysettings')}_values`))
      .entity(Ledger, (e) => e.toCollection(`${prefixFor('mysettings')}_ledger`).timeToLive(3600, { perWrite: true }))
      .build();
    let knex: Knex;
    let db: StoreContext;
    let calls: unknown[][];

    beforeAll(async () => {
      const url = process.env['MYSQL_URL'] as string;
      // One pooled connection: the spy below sits on the connection every read goes through.
      // `version`: knex's own version query cannot read its answer under some of these settings.
      knex = knexFor('mariadb', {
        connection: { uri: url, ...connection },
        pool: { min: 1, max: 1 },
        version: '10.11.0',
      });
      await dropTables(knex, model);
      db = await connectRelational(model, knex, { ttl: 'emulate' });
      await db.ensureCollections();
      const raw = (await knex.client.acquireConnection()) as { execute: (...args: unknown[]) => unknown };
      calls = [];
      const execute = raw.execute.bind(raw);
      raw.execute = (...args: unknown[]) => {
        calls.push(args);
        return execute(...args);
      };
      await knex.client.releaseConnection(raw);
      const repo = db.repository(Sample);
      for (const s of samples) await repo.insert(s);
    });
    afterAll(async () => {
      await db?.close();
      if (knex) {
        await dropTables(knex, model);
        await knex.destroy();
      }
    });

    test('get, getMany and find read back exactly what was written', async () => {
      const repo = db.repository(Sample);
      for (const s of samples) expect(await repo.get(s.id)).toEqual(s);
      const many = await repo.getMany(samples.map((s) => s.id));
      expect(new Map(many.map((s) => [s.id, s]))).toEqual(new Map(samples.map((s) => [s.id, s])));
      expect(await repo.find({ at: AT })).toEqual([samples[0]]);
      expect(await repo.find({ big: BEYOND_2_53 })).toEqual([samples[2]]);
      expect(await repo.count({ text: 'x' })).toBe(2);
      expect(await repo.exists('plain')).toBe(true);
      expect(await repo.ttl('plain')).toBeNull();
    });

    test('ttl (a DECIMAL) and a purge picking BIGINT keys beyond 2^53', async () => {
      const ledger = db.repository(Ledger);
      const due = make(Ledger, { id: BEYOND_2_53, at: AT, whole: 7 });
      const next = make(Ledger, { id: BEYOND_2_53 + 1n, at: AT, whole: 8 });
      await ledger.insert(due, { ttl: 1 });
      await ledger.insert(next, { ttl: 3600 });
      expect(await ledger.get(BEYOND_2_53)).toEqual(due);
      const remaining = await ledger.ttl(BEYOND_2_53 + 1n);
      expect(remaining).toBeGreaterThan(3590);
      expect(remaining).toBeLessThanOrEqual(3600);
      const later = new Date(Date.now() + 10_000);
      expect(await db.purgeExpired({ now: later })).toMatchObject({ deleted: 1 });
      expect(await ledger.get(BEYOND_2_53 + 1n)).toEqual(next);
    });

    test(`reads call mysql2's ${positional ? 'positional execute(sql, values, cb)' : 'options-object execute'}`, async () => {
      calls.length = 0;
      await db.repository(Sample).get('plain');
      await db.repository(Sample).find({ text: 'x' });
      expect(calls.length).toBeGreaterThanOrEqual(2);
      for (const args of calls) expect(typeof args[0]).toBe(positional ? 'string' : 'object');
    });
  });
});
