/**
 * The relational explain texts checked claim by claim against what each engine does (as
 * test/cassandra/explain.test.ts + the live suites do for Cassandra), on the database clock (the
 * default): the table and index each entry says it creates, the stored type of expires_at, the
 * seconds and the anchor the text names, the read paths it says filter, what it says stays in the
 * table until purgeExpired(), the per-write rows, the limits, and "a TTL change affects new writes only".
 */
import type { Knex } from 'knex';
import { ModelBuilder, UnsupportedTtlError, type ExplainEntry, type Model, type StoreContext } from '../../src';
import {
  connectRelational,
  describeEngines,
  prefixFor,
  useEmulatedStore,
  type RelationalEngine,
} from './support/engines';
import { during, expectNowPlus, storedExpiry } from './support/expiry';
import { AuditLog, CacheEntry, Cart, Session, Visit, make } from './support/models';

const prefix = prefixFor('xclaims');
const table = (name: string) => `${prefix}_${name}`;

function claimsModel(sessionTtl?: number): Model {
  return new ModelBuilder()
    .entity(Session, (e) =>
      sessionTtl ? e.toCollection(table('sessions')).timeToLive(sessionTtl) : e.toCollection(table('sessions')),
    )
    .entity(Visit, (e) =>
      e
        .toCollection(table('visits'))
        .key((v) => v.id)
        .field((v) => v.page)
        .timeToLive((v) => v.lastSeenAt, '1h'),
    )
    .entity(Cart, (e) => e.toCollection(table('carts')))
    .entity(CacheEntry, (e) => e.toCollection(table('cache')))
    .entity(AuditLog, (e) => e.toCollection(table('audit')))
    .build();
}

/** The index names an engine reports for a table. */
async function indexNames(knex: Knex, engine: RelationalEngine, name: string): Promise<string[]> {
  if (engine === 'sqlite') {
    return ((await knex.raw(`PRAGMA index_list("${name}")`)) as { name: string }[]).map((r) => r.name);
  }
  if (engine === 'postgres') {
    const result = (await knex.raw('SELECT indexname FROM pg_indexes WHERE tablename = ?', [name])) as {
      rows: { indexname: string }[];
    };
    return result.rows.map((r) => r.indexname);
  }
  const [rows] = (await knex.raw(`SHOW INDEX FROM \`${name}\``)) as [{ Key_name: string }[]];
  return rows.map((r) => r.Key_name);
}

/** The stored type of expires_at, in the words explain uses (INTEGER / timestamptz / DATETIME(3)). */
async function expiryType(knex: Knex, engine: RelationalEngine, name: string): Promise<string> {
  if (engine === 'sqlite') {
    const columns = (await knex.raw(`PRAGMA table_info("${name}")`)) as { name: string; type: string }[];
    return columns.find((c) => c.name === 'expires_at')?.type ?? 'none';
  }
  if (engine === 'postgres') {
    const result = (await knex.raw(
      "SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = 'expires_at'",
      [name],
    )) as { rows: { data_type: string }[] };
    return result.rows[0]?.data_type === 'timestamp with time zone' ? 'timestamptz' : String(result.rows[0]?.data_type);
  }
  const [rows] = (await knex.raw(
    "SELECT COLUMN_TYPE AS t FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ? AND column_name = 'expires_at'",
    [name],
  )) as [{ t: string }[]];
  return String(rows[0]?.t).toUpperCase();
}

/** Sets a row's expires_at to the database's own now, bypassing lifespan (the row is due at once). */
async function dueNow(knex: Knex, engine: RelationalEngine, name: string, id: string): Promise<void> {
  const now = {
    sqlite: "CAST(ROUND(unixepoch('subsec') * 1000) AS INTEGER)",
    postgres: 'now()',
    mariadb: 'UTC_TIMESTAMP(3)',
  }[engine];
  await knex(name)
    .update({ expires_at: knex.raw(now) })
    .where({ id });
}

describeEngines('relational explain, claim by claim (database clock)', (engine) => {
  const model = claimsModel();
  let knex: Knex;
  let db: StoreContext;
  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite));

  const entry = (entity: string) => db.explain().entries.find((e) => e.entity === entity) as ExplainEntry;
  const stored = (name: string, key: string | Record<string, unknown>) => storedExpiry(knex, engine, name, key);

  test('the table, the expires_at column of the type named, and its index exist as materializedBy says', async () => {
    const storage = { sqlite: 'INTEGER', postgres: 'timestamptz', mariadb: 'DATETIME(3)' }[engine];
    for (const e of db.explain().entries) {
      if (e.mechanism === 'none') {
        expect(e.entity).toBe('AuditLog');
        expect(await knex.schema.hasColumn(e.collection, 'expires_at')).toBe(false);
        continue;
      }
      expect(e.materializedBy.text).toContain(`expires_at ${storage}`);
      expect(await expiryType(knex, engine, e.collection)).toBe(storage);
      const index = `ix_${e.collection}_expires_at`;
      expect(e.materializedBy.commands.join('\n')).toContain(index);
      expect(await indexNames(knex, engine, e.collection)).toContain(index);
    }
  });

  test("'each row expires Ns after its last write … it does not count from createdAt, so an upsert renews the row'", async () => {
    const e = entry('Session');
    const seconds = Number(/each row expires (\d+)s after its last write/.exec(e.text)?.[1]);
    expect(seconds).toBe(3600);
    expect(e.text).toContain('it does not count from createdAt, so an upsert renews the row');
    const sessions = db.repository(Session);
    await sessions.insert(make(Session, { id: 's', payload: 'p', createdAt: new Date(Date.now() - 86400_000) }));
    const createdAt = (await sessions.get('s'))?.createdAt;
    const first = await stored(table('sessions'), 's');
    await new Promise((r) => setTimeout(r, 20));
    const window = await during(() => sessions.upsert(make(Session, { id: 's', payload: 'q' })));
    expectNowPlus(await stored(table('sessions'), 's'), window, seconds);
    expect((await stored(table('sessions'), 's')).ms).toBeGreaterThan(first.ms as number);
    expect((await sessions.get('s'))?.createdAt).toEqual(createdAt);
  });

  test("'each row expires 3600s after lastSeenAt … stamps expires_at = lastSeenAt + 3600s; refuses a row expired on arrival'", async () => {
    const e = entry('Visit');
    expect(e.countsFrom).toBe('member:lastSeenAt');
    expect(e.text).toContain('every write stamps expires_at = lastSeenAt + 3600s from the value written');
    const visits = db.repository(Visit);
    const seen = new Date(Date.now() - 600_000);
    await visits.insert(make(Visit, { id: 'v', page: '/', lastSeenAt: seen }));
    expect((await stored(table('visits'), 'v')).ms).toBe(seen.getTime() + 3600_000);
    const limit = e.limits.find((l) => l.includes('RELATIONAL_TTL_ALREADY_EXPIRED'));
    expect(limit).toBeDefined();
    await expect(
      visits.insert(make(Visit, { id: 'late', page: '/', lastSeenAt: new Date(Date.now() - 3601_000) })),
    ).rejects.toMatchObject({ code: 'RELATIONAL_TTL_ALREADY_EXPIRED' });
    await expect(visits.insert(make(Visit, { id: 'zero', page: '/' }))).rejects.toMatchObject({
      code: 'VALUE_INVALID',
    });
    expect(await knex(table('visits')).whereIn('id', ['late', 'zero'])).toEqual([]);
  });

  test("'filtered from every lifespan read (get, getMany, find, exists, count, delete) at once and stay in the table until purgeExpired()'", async () => {
    const e = entry('Cart');
    expect(e.text).toContain(
      'Rows with expires_at <= now are filtered from every lifespan read (get, getMany, find, exists, count, delete) at once and stay in the table until purgeExpired() deletes them',
    );
    expect(e.expiredVisibleUntilDeleted).toBe(false);
    const carts = db.repository(Cart);
    await carts.insert(make(Cart, { id: 'due', items: ['x'] }));
    await carts.insert(make(Cart, { id: 'live', items: ['y'] }));
    await dueNow(knex, engine, table('carts'), 'due');
    expect(await carts.get('due')).toBeUndefined();
    expect((await carts.getMany(['due', 'live'])).map((c) => c.id)).toEqual(['live']);
    expect((await carts.find()).map((c) => c.id)).toEqual(['live']);
    expect(await carts.exists('due')).toBe(false);
    expect(await carts.count()).toBe(1);
    expect(await carts.delete('due')).toBe(false);
    // The warning: SQL outside lifespan still sees it, until purgeExpired() deletes it.
    expect(e.warnings.join('\n')).toContain('SQL run outside lifespan still sees expired rows until purgeExpired()');
    expect(await knex(table('carts')).where({ id: 'due' })).toHaveLength(1);
    expect(await db.purgeExpired()).toMatchObject({ deleted: 1 });
    expect(await knex(table('carts')).where({ id: 'due' })).toEqual([]);
    expect(await carts.exists('live')).toBe(true);
  });

  test('each per-write row does what its how says, or refuses with UnsupportedTtlError and writes nothing', async () => {
    const instant = new Date(Date.now() + 3600_123);
    const values = {
      duration: 90,
      default: 'default',
      never: 'never',
      keep: 'keep',
      extend: { extend: 7200 },
      at: { at: instant },
    } as const;
    const subjects = [
      { name: 'Session', cls: Session, key: 'id', make: (id: string) => make(Session, { id, payload: 'p' }) },
      { name: 'Cart', cls: Cart, key: 'id', make: (id: string) => make(Cart, { id, items: [] }) },
      {
        name: 'CacheEntry',
        cls: CacheEntry,
        key: 'key',
        make: (id: string) => make(CacheEntry, { key: id, value: 'v' }),
      },
      { name: 'AuditLog', cls: AuditLog, key: 'id', make: (id: string) => make(AuditLog, { id }) },
    ] as const;
    for (const subject of subjects) {
      const e = entry(subject.name);
      const repo = db.repository(subject.cls as new () => object);
      for (const row of e.perWrite) {
        const id = `pw-${row.value}`;
        // An existing row with a known expiry, so keep / extend have something to act on.
        if (row.support !== 'unsupported' && (row.value === 'keep' || row.value === 'extend')) {
          await repo.upsert(subject.make(id), e.mechanism === 'none' ? {} : { ttl: 600 });
        }
        const before =
          row.support === 'unsupported'
            ? undefined
            : await stored(e.collection, { [subject.key]: id }).catch(() => undefined);
        let outcome = '';
        const window = await during(async () => {
          outcome = await repo.upsert(subject.make(id), { ttl: values[row.value] }).then(
            () => 'written',
            (error: unknown) => (error instanceof UnsupportedTtlError ? 'unsupported' : String(error)),
          );
        });
        const there = await repo.exists(id);
        if (row.support === 'unsupported') {
          expect([subject.name, row.value, outcome, there]).toEqual([subject.name, row.value, 'unsupported', false]);
          continue;
        }
        expect([subject.name, row.value, outcome, there]).toEqual([subject.name, row.value, 'written', true]);
        if (e.mechanism === 'none') continue;
        const after = await stored(e.collection, { [subject.key]: id });
        if (row.value === 'duration') {
          expect(row.how).toContain('+ n s');
          expectNowPlus(after, window, 90);
        }
        if (row.value === 'never') {
          expect(row.how).toBe('expires_at = NULL');
          expect(after.ms).toBeNull();
        }
        if (row.value === 'default') {
          const n = /\+ (\d+)s$/.exec(row.how)?.[1];
          if (n === undefined) expect(after.ms).toBeNull();
          else expectNowPlus(after, window, Number(n));
        }
        if (row.value === 'keep') expect(after).toEqual(before);
        if (row.value === 'extend') expectNowPlus(after, window, 7200); // max(now + 600, now + 7200)
        if (row.value === 'at') {
          expect(row.how).toContain('expires_at = the instant itself, exact');
          expect(after.ms).toBe(instant.getTime());
        }
      }
    }
  });

  test("limits: 'TTL 1..2147483647 s, whole seconds; a row is expired when expires_at <= now (inclusive)'", async () => {
    const e = entry('Cart');
    expect(e.limits).toContain(
      'TTL 1..2147483647 s, whole seconds; a row is expired when expires_at <= now (inclusive)',
    );
    const carts = db.repository(Cart);
    await carts.insert(make(Cart, { id: 'lim', items: [] }));
    for (const bad of [0, 1.5, 2147483648]) {
      await expect(carts.setTtl('lim', bad)).rejects.toMatchObject({ name: 'TtlError' });
    }
    const window = await during(() => carts.setTtl('lim', 2147483647));
    expectNowPlus(await stored(table('carts'), 'lim'), window, 2147483647);
    // Inclusive boundary: an injected clock stamps a millisecond-exact instant, then stands on it.
    let now = Date.UTC(2031, 0, 1);
    const clocked = await connectRelational(model, knex, { ttl: 'emulate', clock: () => new Date(now) });
    try {
      expect(await clocked.repository(Cart).setTtl('lim', 60)).toBe(true);
      expect((await stored(table('carts'), 'lim')).ms).toBe(now + 60_000);
      now += 59_999;
      expect(await clocked.repository(Cart).exists('lim')).toBe(true);
      now += 1;
      expect(await clocked.repository(Cart).exists('lim')).toBe(false);
    } finally {
      await clocked.close();
    }
  });

  test("changeEffect: 'a TTL change applies to rows written after it; stored rows keep their expiry'", async () => {
    expect(entry('Session').changeEffect).toMatchObject({ kind: 'new-writes-only' });
    expect(entry('Session').text).toContain(
      'Changing the TTL affects new writes only; stored rows keep their expires_at.',
    );
    await db.repository(Session).insert(make(Session, { id: 'before-change', payload: 'p' }));
    const kept = await stored(table('sessions'), 'before-change');
    const changed = await connectRelational(claimsModel(60), knex, { ttl: 'emulate' });
    try {
      expect(changed.explain().entries.find((x) => x.entity === 'Session')?.seconds).toBe(60);
      await changed.ensureCollections();
      expect(await stored(table('sessions'), 'before-change')).toEqual(kept);
      const window = await during(() =>
        changed.repository(Session).insert(make(Session, { id: 'after-change', payload: 'p' })),
      );
      expectNowPlus(await stored(table('sessions'), 'after-change'), window, 60);
    } finally {
      await changed.close();
    }
  });
});

describeEngines("relational explain, claim by claim (ttl: 'ignore')", (engine) => {
  const model = new ModelBuilder().entity(Cart, (e) => e.toCollection(table('ignored'))).build();
  let knex: Knex;
  let db: StoreContext;
  beforeAll(async () => {
    const { knexFor } = await import('../harness/relational');
    knex = knexFor(engine);
    await knex.schema.dropTableIfExists(table('ignored'));
    db = await connectRelational(model, knex, { ttl: 'ignore' });
    await db.ensureCollections();
  });
  afterAll(async () => {
    await db?.close();
    await knex?.schema.dropTableIfExists(table('ignored'));
    await knex?.destroy();
  });

  test("'the declaration is ignored … rows stay visible until you delete them'; per-write rows as listed", async () => {
    const [e] = db.explain().entries;
    expect(e).toMatchObject({ mechanism: 'none', expiredVisibleUntilDeleted: true });
    expect(e?.text).toContain('rows stay visible until you delete them');
    expect(await knex.schema.hasColumn(table('ignored'), 'expires_at')).toBe(false);
    const carts = db.repository(Cart);
    const values = {
      duration: 90,
      default: 'default',
      never: 'never',
      keep: 'keep',
      extend: { extend: 60 },
      at: { at: new Date(Date.now() + 3600_000) },
    } as const;
    for (const row of e?.perWrite ?? []) {
      const outcome = await carts
        .upsert(make(Cart, { id: `i-${row.value}`, items: [] }), { ttl: values[row.value] })
        .then(
          () => 'accepted',
          (error: unknown) => (error instanceof UnsupportedTtlError ? 'unsupported' : String(error)),
        );
      expect([row.value, outcome]).toEqual([row.value, row.support === 'unsupported' ? 'unsupported' : 'accepted']);
      // An accepted write in ignore mode sets no expiry at all: the table must not call it native.
      if (outcome === 'accepted') {
        expect([row.value, row.support]).toEqual([row.value, 'ignored']);
        expect(await carts.ttl(`i-${row.value}`)).toBeNull();
      }
    }
    expect(await carts.ttl('i-default')).toBeNull();
  });
});
