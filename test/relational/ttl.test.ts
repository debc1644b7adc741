/**
 * TTL emulation semantics on every engine, with an injected clock (bound-parameter statements): the
 * boundary, read-path filtering, the per-write vocabulary, ttl()/setTtl(), anchored and sliding
 * expiry. The other clock mode, the database clock (the default, SQL now expressions), has its half
 * in ttl-database-clock.test.ts, which asserts the stored expires_at itself.
 */
import type { Knex } from 'knex';
import { LifespanError, type Repository, type StoreContext } from '../../src';
import type { RelationalRepository } from '../../src/providers/relational';
import { connectRelational, describeEngines, prefixFor, TestClock, useEmulatedStore } from './support/engines';
import { CacheEntry, Cart, Reading, Session, Token, Visit, make, testModel } from './support/models';

describeEngines('relational TTL emulation', (engine) => {
  const model = testModel(prefixFor('ttl'));
  const clock = new TestClock();
  let knex: Knex;
  let db: StoreContext;

  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite), { clock: clock.read });

  /** What every read path says about one key of Token. */
  async function seen(repo: Repository<Token>, id: string) {
    return {
      get: (await repo.get(id)) !== undefined,
      exists: await repo.exists(id),
      getMany: (await repo.getMany([id])).length === 1,
      find: (await repo.find({ id })).length === 1,
      findAll: (await repo.find()).some((t) => t.id === id),
      count: await repo.count({ id }),
      ttl: await repo.ttl(id),
    };
  }

  test('boundary: live one second before, expired exactly at and after expires_at, on every read path', async () => {
    const repo = db.repository(Token);
    const start = clock.nowMs;
    await repo.insert(make(Token, { id: 'edge', owner: 'o' }), { ttl: 10 });
    clock.at(start + 9000);
    expect(await seen(repo, 'edge')).toEqual({
      get: true,
      exists: true,
      getMany: true,
      find: true,
      findAll: true,
      count: 1,
      ttl: 1,
    });
    clock.at(start + 10000);
    const gone = { get: false, exists: false, getMany: false, find: false, findAll: false, count: 0, ttl: undefined };
    expect(await seen(repo, 'edge')).toEqual(gone);
    expect(await repo.delete('edge')).toBe(false);
    expect(await repo.setTtl('edge', 60)).toBe(false);
    clock.at(start + 11000);
    expect(await seen(repo, 'edge')).toEqual(gone);
    // the row is still stored (a purge removes it): a range delete skips it
    expect(await (repo as RelationalRepository<Token>).deleteWhere({ owner: 'o' })).toBe(0);
    clock.at(start + 9999);
    expect(await repo.exists('edge')).toBe(true);
    clock.at(start);
  });

  test('an expired row does not block an insert, and a new row replaces it', async () => {
    const repo = db.repository(Token);
    const start = clock.nowMs;
    await repo.insert(make(Token, { id: 'again', owner: 'old' }), { ttl: 5 });
    clock.advance(6);
    await repo.insert(make(Token, { id: 'again', owner: 'new' }));
    const back = await repo.get('again');
    expect(back?.owner).toBe('new');
    expect(await repo.ttl('again')).toBe(10);
    clock.at(start);
  });

  test('a plain write follows the entity default; never clears; keep keeps; extend never shortens', async () => {
    const repo = db.repository(Session);
    const s = (id: string) => make(Session, { id, payload: 'p' });
    await repo.upsert(s('w'), { ttl: 60 });
    expect(await repo.ttl('w')).toBe(60);
    await repo.upsert(s('w'));
    expect(await repo.ttl('w')).toBe(3600);
    await repo.upsert(s('w'), { ttl: 'never' });
    expect(await repo.ttl('w')).toBeNull();
    await repo.upsert(s('w'), { ttl: 'default' });
    expect(await repo.ttl('w')).toBe(3600);

    clock.advance(100);
    await repo.upsert(s('w'), { ttl: 'keep' });
    expect(await repo.ttl('w')).toBe(3500);

    await repo.upsert(s('w'), { ttl: { extend: 60 } });
    expect(await repo.ttl('w')).toBe(3500);
    await repo.upsert(s('w'), { ttl: { extend: '2h' } });
    expect(await repo.ttl('w')).toBe(7200);
    await repo.upsert(s('w'), { ttl: 'never' });
    await repo.upsert(s('w'), { ttl: { extend: 60 } });
    expect(await repo.ttl('w')).toBeNull();
    await repo.upsert(s('w'), { ttl: 'keep' });
    expect(await repo.ttl('w')).toBeNull();

    // a new row under 'keep' or { extend } gets the default / now + n
    await repo.upsert(s('k-new'), { ttl: 'keep' });
    expect(await repo.ttl('k-new')).toBe(3600);
    await repo.insert(s('x-new'), { ttl: { extend: 120 } });
    expect(await repo.ttl('x-new')).toBe(120);
  });

  test("'keep' and { extend } over an expired row treat it as absent", async () => {
    const repo = db.repository(Session);
    const s = (id: string, payload: string) => make(Session, { id, payload });
    await repo.upsert(s('stale', 'old'), { ttl: 5 });
    const created = (await repo.get('stale'))?.createdAt.getTime();
    clock.advance(5);
    expect(await repo.exists('stale')).toBe(false);
    await new Promise((r) => setTimeout(r, 5));
    await repo.upsert(s('stale', 'new'), { ttl: 'keep' });
    expect(await repo.ttl('stale')).toBe(3600);
    const back = await repo.get('stale');
    expect(back?.payload).toBe('new');
    // a fresh row: its createdAt is the new write's, not the expired row's
    expect(back?.createdAt.getTime()).not.toBe(created);
    clock.advance(3600);
    await repo.upsert(s('stale', 'newer'), { ttl: { extend: 30 } });
    expect(await repo.ttl('stale')).toBe(30);
  });

  test('ttl() and setTtl(): the vocabulary, a missing key, and no rewrite of the row', async () => {
    const repo = db.repository(Cart);
    expect(await repo.ttl('none')).toBeUndefined();
    expect(await repo.setTtl('none', 60)).toBe(false);
    expect(await repo.exists('none')).toBe(false);

    const cart = make(Cart, { id: 'c1', items: ['a'] });
    await repo.insert(cart);
    const stored = await repo.get('c1');
    expect(await repo.ttl('c1')).toBe(7 * 86400);
    clock.advance(30);
    expect(await repo.setTtl('c1', 90)).toBe(true);
    expect(await repo.ttl('c1')).toBe(90);
    expect(await repo.get('c1')).toEqual(stored); // updatedAt untouched: the row was not rewritten
    expect(await repo.setTtl('c1', { extend: 30 })).toBe(true);
    expect(await repo.ttl('c1')).toBe(90);
    expect(await repo.setTtl('c1', { extend: 300 })).toBe(true);
    expect(await repo.ttl('c1')).toBe(300);
    expect(await repo.setTtl('c1', 'keep')).toBe(true);
    expect(await repo.ttl('c1')).toBe(300);
    expect(await repo.setTtl('c1', 'never')).toBe(true);
    expect(await repo.ttl('c1')).toBeNull();
    expect(await repo.setTtl('c1', 'default')).toBe(true);
    expect(await repo.ttl('c1')).toBe(7 * 86400);
    await expect(repo.setTtl('c1', 0)).rejects.toMatchObject({ code: 'TTL_NOT_POSITIVE' });
  });

  test('sliding expiry: each write of an @UpdatedAt entity pushes the expiry', async () => {
    const repo = db.repository(Cart);
    const start = clock.nowMs;
    await repo.upsert(make(Cart, { id: 'slide', items: [] }));
    clock.advance(6 * 86400);
    expect(await repo.ttl('slide')).toBe(86400);
    await repo.upsert(make(Cart, { id: 'slide', items: ['x'] }));
    expect(await repo.ttl('slide')).toBe(7 * 86400);
    clock.advance(6 * 86400);
    expect(await repo.exists('slide')).toBe(true);
    clock.at(start);
  });

  test('an anchored TTL counts from the member value written', async () => {
    const repo = db.repository(Visit);
    const start = clock.nowMs;
    await repo.insert(make(Visit, { id: 'v', page: '/', lastSeenAt: new Date(start - 30 * 60 * 1000) }));
    expect(await repo.ttl('v')).toBe(1800);
    await repo.upsert(make(Visit, { id: 'v', page: '/', lastSeenAt: new Date(start) }), { ttl: 60 });
    expect(await repo.ttl('v')).toBe(60);
    expect(await repo.setTtl('v', 'default')).toBe(true);
    expect(await repo.ttl('v')).toBe(3600);
    // the same expiry again: still a live row found (MariaDB counts matched, not changed, rows)
    expect(await repo.setTtl('v', 'default')).toBe(true);
  });

  test('an anchored write that would be expired on arrival is refused, and nothing is written', async () => {
    const repo = db.repository(Visit);
    const start = clock.nowMs;
    const visit = (id: string, ms: number, page = '/') => make(Visit, { id, page, lastSeenAt: new Date(ms) });
    await repo.insert(visit('late', start - 30 * 60 * 1000, 'first'));
    // exactly at the boundary: lastSeenAt + 1h = now is already expired (expires_at <= now)
    for (const write of [
      () => repo.insert(visit('late-new', start - 3600 * 1000)),
      () => repo.upsert(visit('late', start - 3600 * 1000, 'second')),
      () => repo.upsert(visit('late', start - 2 * 3600 * 1000, 'second'), { ttl: 'keep' }),
      () =>
        db
          .unitOfWork()
          .upsert(visit('late', start - 3600 * 1000, 'second'))
          .commit(),
    ]) {
      const error = await write().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LifespanError);
      expect(error).toMatchObject({
        code: 'RELATIONAL_TTL_ALREADY_EXPIRED',
        entity: 'Visit',
        member: 'lastSeenAt',
        store: 'relational',
      });
      expect((error as LifespanError).hint).toContain("{ ttl: '1h' }");
    }
    expect(await repo.exists('late-new')).toBe(false);
    expect((await repo.get('late'))?.page).toBe('first');
    expect(await repo.ttl('late')).toBe(1800);
    // one millisecond later is live; and a write with its own TTL counts from now
    await repo.insert(visit('late-new', start - 3600 * 1000 + 1));
    expect(await repo.exists('late-new')).toBe(true);
    await repo.upsert(visit('late', start - 2 * 3600 * 1000, 'third'), { ttl: '1h' });
    expect(await repo.ttl('late')).toBe(3600);
    // setTtl('default') counts from the stored lastSeenAt, two hours ago: refused, nothing changed
    await expect(repo.setTtl('late', 'default')).rejects.toMatchObject({
      code: 'RELATIONAL_TTL_ALREADY_EXPIRED',
      member: 'lastSeenAt',
    });
    expect(await repo.ttl('late')).toBe(3600);
    expect(await repo.setTtl('missing', 'default')).toBe(false);
  });

  test('new Date(0) in the member the TTL counts from is refused as the unset placeholder', async () => {
    const repo = db.repository(Visit);
    const placeholder = make(Visit, { id: 'zero', page: '/' });
    expect(placeholder.lastSeenAt.getTime()).toBe(0);
    for (const write of [
      () => repo.insert(placeholder),
      () => repo.upsert(placeholder, { ttl: '1h' }),
      () => db.unitOfWork().insert(placeholder).commit(),
    ]) {
      const error = await write().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LifespanError);
      expect(error).toMatchObject({ code: 'VALUE_INVALID', entity: 'Visit', member: 'lastSeenAt' });
      expect((error as LifespanError).hint).toContain('set lastSeenAt');
    }
    expect(await repo.exists('zero')).toBe(false);
    expect(await repo.ttl('zero')).toBeUndefined();
  });

  test('on the database clock, the anchored check uses the client clock', async () => {
    const dbClock = await connectRelational(model, knex, { ttl: 'emulate' });
    try {
      const repo = dbClock.repository(Visit);
      await expect(
        repo.insert(make(Visit, { id: 'db-late', page: '/', lastSeenAt: new Date(Date.now() - 2 * 3600 * 1000) })),
      ).rejects.toMatchObject({ code: 'RELATIONAL_TTL_ALREADY_EXPIRED' });
      expect(await repo.exists('db-late')).toBe(false);
      await repo.insert(make(Visit, { id: 'db-late', page: '/', lastSeenAt: new Date(Date.now() - 1800 * 1000) }));
      const left = await repo.ttl('db-late');
      expect(left).toBeGreaterThan(1700);
      expect(left).toBeLessThanOrEqual(1800);
    } finally {
      await dbClock.close();
    }
  });

  test('per-write TTL only: nothing expires unless a write says so', async () => {
    const repo = db.repository(CacheEntry);
    await repo.insert(make(CacheEntry, { key: 'forever', value: 'v' }));
    await repo.insert(make(CacheEntry, { key: 'brief', value: 'v' }), { ttl: '15m' });
    expect(await repo.ttl('forever')).toBeNull();
    expect(await repo.ttl('brief')).toBe(900);
  });

  test('unit of work: commit({ ttl }) applies to writes without their own', async () => {
    await db
      .unitOfWork()
      .insert(make(Session, { id: 'u1', payload: 'p' }))
      .insert(make(Session, { id: 'u2', payload: 'p' }), { ttl: 'never' })
      .upsert(make(Reading, { sensorId: 'u', takenAt: new Date(0), value: 1 }))
      .commit({ ttl: 120 });
    const sessions = db.repository(Session);
    expect(await sessions.ttl('u1')).toBe(120);
    expect(await sessions.ttl('u2')).toBeNull();
    expect(await db.repository(Reading).ttl({ sensorId: 'u', takenAt: new Date(0) })).toBe(120);
  });
});
