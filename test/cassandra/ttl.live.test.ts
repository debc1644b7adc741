/**
 * Expiry against the real node: table default, per-write USING TTL, 'never', the node's limits,
 * setTtl as a rewrite, a unit of work's commit TTL, and the UPDATE/row-marker caveat explain() states.
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import { Entity, Field, Key, TimeToLive, TtlError, UnsupportedTtlError, explain, type StoreContext } from '../../src';
import { AuditLog, CacheEntry, Cart, Session } from '../../examples/models';
import { CEILING_2038 } from '../../src/providers/cassandra';
import { describeStore } from '../harness/stores';
import { build, cellTtl, open, sleep, useTestKeyspace } from './fixtures';

// Session declares perWrite here: the suite writes per-write TTLs, which every store asks to be declared.
const model = build((b) =>
  b
    .entity(Session, (e) => e.timeToLive(3600, { perWrite: true }))
    .entity(Cart)
    .entity(CacheEntry)
    .entity(AuditLog),
);

function session(id: string, payload = 'p'): Session {
  return Object.assign(new Session(), { id, payload });
}

describeStore('cassandra', 'cassandra TTL (live)', () => {
  let client: Client;
  let keyspace: string;
  let db: StoreContext;

  useTestKeyspace('ls_ttl', async (live) => {
    ({ client, keyspace } = live);
    db = await open(client, keyspace, model);
    await db.ensureCollections();
  });

  it('stamps the table default on a plain write: TTL() is within the declared 3600 s', async () => {
    const sessions = db.repository(Session);
    await sessions.insert(session('default'));
    const ttl = await sessions.ttl('default');
    expect(ttl).toBeGreaterThan(3590);
    expect(ttl).toBeLessThanOrEqual(3600);
    for (const column of ['createdAt', 'payload']) {
      const raw = await cellTtl(client, keyspace, 'sessions', 'id', 'default', column);
      expect(raw).toBeGreaterThan(3590);
      expect(raw).toBeLessThanOrEqual(3600);
    }
    expect((await sessions.get('default'))?.createdAt).toBeInstanceOf(Date);
  });

  it("'never' on a table with a default gives no TTL, and a duration overrides the default", async () => {
    const sessions = db.repository(Session);
    await sessions.upsert(session('never'), { ttl: 'never' });
    expect(await sessions.ttl('never')).toBeNull();
    expect(await cellTtl(client, keyspace, 'sessions', 'id', 'never', 'payload')).toBeNull();
    await sessions.upsert(session('short'), { ttl: '10m' });
    const ttl = await sessions.ttl('short');
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);
    expect(await sessions.ttl('missing')).toBeUndefined();
  });

  it('per-write TTLs of 2 s, setTtl and a unit of work make rows disappear; an outside UPDATE leaves a half row', async () => {
    const sessions = db.repository(Session);
    const cache = db.repository(CacheEntry);
    const audit = db.repository(AuditLog);
    // Overwrites of rows that never expired: the kept @CreatedAt cell is written with the new TTL too.
    await sessions.insert(session('overwritten', 'first'), { ttl: 'never' });
    const created = (await sessions.get('overwritten'))?.createdAt;
    await sessions.upsert(session('overwritten', 'second'), { ttl: 2 });
    expect((await sessions.get('overwritten'))?.createdAt).toEqual(created);
    await sessions.insert(session('uow-overwritten'), { ttl: 'never' });
    await db.unitOfWork().upsert(session('uow-overwritten', 'second')).commit({ ttl: 2 });
    await sessions.upsert(session('fleeting'), { ttl: 2 });
    await sessions.upsert(session('rewritten'));
    expect(await sessions.setTtl('rewritten', 2)).toBe(true);
    await db
      .unitOfWork()
      .insert(Object.assign(new CacheEntry(), { key: 'uow-a', value: 'a' }))
      .insert(Object.assign(new CacheEntry(), { key: 'uow-b', value: 'b' }))
      .upsert(Object.assign(new CacheEntry(), { key: 'uow-kept', value: 'c' }), { ttl: 'never' })
      .commit({ ttl: 2 });
    await audit.insert(Object.assign(new AuditLog(), { id: 'marker', message: 'inserted without TTL' }));
    await client.execute(
      `UPDATE "${keyspace}"."audit_log" USING TTL 2 SET "message" = ?, "createdAt" = ? WHERE "id" = ?`,
      ['updated with TTL', new Date(), 'marker'],
      { prepare: true },
    );
    const written = Date.now();

    // Well before expiry: everything is there, with TTLs of at most 2 s.
    expect(await sessions.exists('fleeting')).toBe(true);
    expect(await sessions.get('rewritten')).toMatchObject({ id: 'rewritten', payload: 'p' });
    expect(await sessions.ttl('rewritten')).toBeLessThanOrEqual(2);
    expect(await cache.ttl('uow-a')).toBeLessThanOrEqual(2);
    expect(await cache.ttl('uow-kept')).toBeNull();
    expect(await cache.count()).toBe(3);

    await sleep(Math.max(0, written + 3500 - Date.now()));

    expect(await sessions.get('fleeting')).toBeUndefined();
    expect(await sessions.exists('rewritten')).toBe(false);
    expect(await cache.getMany(['uow-a', 'uow-b', 'uow-kept'])).toEqual([
      expect.objectContaining({ key: 'uow-kept', value: 'c' }),
    ]);
    expect(await cache.count()).toBe(1);
    // Whole rows are gone, not just the cells the overwrite named: no cell or row marker outlived it.
    const overwritten = await client.execute(
      `SELECT * FROM "${keyspace}"."sessions" WHERE "id" IN ('overwritten', 'uow-overwritten')`,
    );
    expect(overwritten.rows).toEqual([]);
    // The row marker written by lifespan's INSERT had no TTL: the row outlives the cells the UPDATE stamped.
    const half = await client.execute(`SELECT * FROM "${keyspace}"."audit_log" WHERE "id" = ?`, ['marker'], {
      prepare: true,
    });
    expect(half.rows).toHaveLength(1);
    expect(half.rows[0]!['message']).toBeNull();
    expect(await audit.exists('marker')).toBe(true);
  });

  it('setTtl rewrites the row with USING TTL, keeping its values', async () => {
    const carts = db.repository(Cart);
    const cart = Object.assign(new Cart(), { id: 'c1', items: ['apple', 'pear'] });
    await carts.insert(cart);
    const before = await carts.get('c1');
    expect(await carts.ttl('c1')).toBeGreaterThan(604000);
    expect(await carts.setTtl('c1', '1h')).toBe(true);
    const ttl = await carts.ttl('c1');
    expect(ttl).toBeGreaterThan(3590);
    expect(ttl).toBeLessThanOrEqual(3600);
    expect(await carts.get('c1')).toEqual(before);
    expect(await carts.setTtl('c1', 'never')).toBe(true);
    expect(await carts.ttl('c1')).toBeNull();
    expect(await carts.setTtl('c1', 'default')).toBe(true);
    expect(await carts.ttl('c1')).toBeGreaterThan(604000);
    expect(await carts.setTtl('c1', 'keep')).toBe(true);
    expect(await carts.setTtl('nope', 60)).toBe(false);
    expect(await carts.exists('nope')).toBe(false);
  });

  it('gives TtlError for a TTL over 630720000 s or past the 2038 ceiling, where the node would fail', async () => {
    const sessions = db.repository(Session);
    await expect(sessions.upsert(session('max'), { ttl: 630720001 })).rejects.toMatchObject({
      name: 'TtlError',
      code: 'CASSANDRA_TTL_TOO_LARGE',
      value: 630720001,
    });
    // 630720000 is Cassandra's maximum, but in 2026 and later now + 20 years is past 2038.
    await expect(sessions.upsert(session('max'), { ttl: 630720000 })).rejects.toMatchObject({
      code: 'CASSANDRA_TTL_PAST_CEILING',
    });
    const room = Math.floor(CEILING_2038.getTime() / 1000) - Math.floor(Date.now() / 1000);
    await expect(sessions.upsert(session('over'), { ttl: room + 5 })).rejects.toThrow(TtlError);
    await sessions.upsert(session('under'), { ttl: room - 5 });
    expect(await sessions.ttl('under')).toBeGreaterThan(room - 10);
    expect(await sessions.getMany(['max', 'over'])).toEqual([]);

    // The node agrees: the same TTL sent without lifespan is refused by the node itself (policy REJECT).
    const raw = `INSERT INTO "${keyspace}"."sessions" ("id", "payload") VALUES (?, ?) USING TTL ?`;
    await expect(client.execute(raw, ['raw', 'x', room + 5], { prepare: true })).rejects.toThrow(
      /exceeds maximum supported expiration date of 2038-01-19T03:14:06/,
    );
  });

  it('checks the declared default against the same limits when the store opens (now injectable)', async () => {
    @Entity('long_lived')
    @TimeToLive(400_000_000)
    class LongLived {
      @Key() id = '';
      @Field() v = '';
    }
    @Entity('too_long')
    @TimeToLive(630_720_001)
    class TooLong {
      @Key() id = '';
      @Field() v = '';
    }
    const longModel = build((b) => b.entity(LongLived));
    await expect(open(client, keyspace, longModel)).rejects.toMatchObject({
      name: 'TtlError',
      code: 'CASSANDRA_TTL_PAST_CEILING',
      entity: 'LongLived',
    });
    await expect(
      open(
        client,
        keyspace,
        build((b) => b.entity(TooLong)),
      ),
    ).rejects.toMatchObject({
      name: 'TtlError',
      code: 'CASSANDRA_TTL_TOO_LARGE',
    });
    const in2020 = () => new Date('2020-01-01T00:00:00Z');
    // Opened with either escape, the store serves the declared default and explains it.
    for (const options of [{ now: in2020 }, { expirationCeiling: null }]) {
      const opened = await open(client, keyspace, longModel, options);
      expect(opened.explain().entries).toEqual([
        expect.objectContaining({ entity: 'LongLived', mechanism: 'table-default-ttl', seconds: 400_000_000 }),
      ]);
      const plan = await opened.plan();
      expect(plan.steps.map((step) => JSON.stringify(step)).join('\n')).toContain('default_time_to_live = 400000000');
    }
    expect(() => explain(longModel, { stores: ['cassandra'] })).toThrow(/CASSANDRA_TTL_PAST_CEILING/);
    expect(explain(longModel, { stores: ['cassandra'], cassandra: { now: in2020 } }).entries).toHaveLength(1);
  });

  it('explain() says what the node was observed to do', async () => {
    const entry = db.explain().entries.find((e) => e.entity === 'Session')!;
    const table = await client.execute(
      'SELECT default_time_to_live FROM system_schema.tables WHERE keyspace_name = ? AND table_name = ?',
      [keyspace, 'sessions'],
      { prepare: true },
    );
    expect(entry).toMatchObject({ mechanism: 'table-default-ttl', countsFrom: 'last-write' });
    expect(entry.seconds).toBe(table.rows[0]!['default_time_to_live']);
    expect(entry.materializedBy.commands[0]).toContain('WITH default_time_to_live = 3600');

    // Per-write support as listed = what a write with that value does.
    const sessions = db.repository(Session);
    const values = {
      duration: 60,
      default: 'default',
      never: 'never',
      keep: 'keep',
      extend: { extend: 60 },
      at: { at: new Date(Date.now() + 60_000) },
    } as const;
    for (const row of entry.perWrite) {
      const outcome = await sessions.upsert(session(`pw-${row.value}`), { ttl: values[row.value] }).then(
        () => (row.value === 'at' ? 'emulated' : 'native'),
        (error: unknown) => (error instanceof UnsupportedTtlError ? 'unsupported' : String(error)),
      );
      expect([row.value, outcome]).toEqual([row.value, row.support]);
    }

    // Counting from each write (createdAt is not consulted): a plain rewrite restarts the clock.
    await sessions.upsert(session('restart'), { ttl: 100 });
    const first = await sessions.get('restart');
    await sessions.upsert(first!);
    expect(await sessions.ttl('restart')).toBeGreaterThan(3590);
    expect((await sessions.get('restart'))?.createdAt).toEqual(first?.createdAt);
    expect(entry.text).toContain('createdAt is not consulted, so rewriting a row restarts its clock');
    expect(entry.expiredVisibleUntilDeleted).toBe(false); // observed in the 2 s expiry test above
  });

  it('detects the 2038 ceiling of a 5.0 node in its default storage_compatibility_mode', async () => {
    // 5.0.9 lists the setting but shows its value as null; anything but NONE means the 2038 ceiling,
    // which the node's own rejection above confirms.
    const mode = await client.execute(
      "SELECT value FROM system_views.settings WHERE name = 'storage_compatibility_mode'",
    );
    expect(mode.rows[0]?.['value']).not.toBe('NONE');
    const [entry] = db.explain().entries;
    expect(entry?.limits.join('\n')).toContain('now + TTL must not pass 2038-01-19T03:14:06Z');
    const fixed = await open(client, keyspace, model, { expirationCeiling: new Date('2106-02-07T06:28:13Z') });
    expect(fixed.explain().entries[0]?.limits.join('\n')).toContain('2106-02-07T06:28:13Z');
  });
});
