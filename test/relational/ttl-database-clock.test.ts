/**
 * TTL emulation on the database clock (the default: no injected clock, so every expiry is computed
 * by SQL `now` expressions rather than bound instants). ttl.test.ts pins the same vocabulary with an
 * injected clock; this half reads the stored expires_at itself, in the database's own text, so that
 * a statement form that re-stamps, shortens or fails to shorten cannot hide behind ttl()'s rounding.
 */
import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import { Entity, Field, Key, TimeToLive, type StoreContext } from '../../src';
import { connectRelational, describeEngines, prefixFor, useEmulatedStore } from './support/engines';
import { during, expectNowPlus, storedExpiry } from './support/expiry';
import { make, testModelWith } from './support/models';

/** A one-hour default that writes may override (perWrite declared, as the model requires). */
@Entity('leases')
@TimeToLive({ ttl: 3600, perWrite: true })
class Lease {
  @Key() id = '';
  @Field() note = '';
}

const HOUR = 3600;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * ttl() of a row written with `ttl` seconds at or after `startedMs` (performance.now()): whole
 * seconds left, less what has passed since (rounded up) and one more for ttl()'s own rounding.
 */
function expectLeft(left: number | null | undefined, ttl: number, startedMs: number): void {
  const elapsed = Math.ceil((performance.now() - startedMs) / 1000);
  expect(left).toBeGreaterThanOrEqual(ttl - elapsed - 1);
  expect(left).toBeLessThanOrEqual(ttl);
}

describeEngines('relational TTL emulation on the database clock', (engine) => {
  const model = testModelWith(prefixFor('ttldb'), (b) =>
    b.entity(Lease, (e) => e.toCollection(`${prefixFor('ttldb')}_leases`)),
  );
  const table = `${prefixFor('ttldb')}_leases`;
  let knex: Knex;
  let db: StoreContext;

  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite));

  const lease = (id: string) => make(Lease, { id, note: 'n' });
  const stored = (id: string) => storedExpiry(knex, engine, table, id);

  test("'keep' leaves expires_at byte-identical, on a row written with its own TTL and on a default one", async () => {
    const repo = db.repository(Lease);
    await repo.insert(lease('keep-own'), { ttl: 60 });
    await repo.insert(lease('keep-default'));
    const own = await stored('keep-own');
    const byDefault = await stored('keep-default');
    await pause(20); // a re-stamp would now differ even with the same duration
    await repo.upsert(make(Lease, { id: 'keep-own', note: 'changed' }), { ttl: 'keep' });
    await repo.upsert(make(Lease, { id: 'keep-default', note: 'changed' }), { ttl: 'keep' });
    expect(await stored('keep-own')).toEqual(own);
    expect(await stored('keep-default')).toEqual(byDefault);
    expect((await repo.get('keep-own'))?.note).toBe('changed');
    await db.unitOfWork().upsert(lease('keep-own'), { ttl: 'keep' }).commit();
    expect(await stored('keep-own')).toEqual(own);
    expect(await repo.setTtl('keep-own', 'keep')).toBe(true);
    expect(await stored('keep-own')).toEqual(own);
  });

  test("'keep' on a new row stamps the entity default from the database clock", async () => {
    const window = await during(() => db.repository(Lease).upsert(lease('keep-new'), { ttl: 'keep' }));
    expectNowPlus(await stored('keep-new'), window, HOUR);
  });

  test('{ extend } never shortens: a shorter extension leaves expires_at identical, a longer one moves it', async () => {
    const repo = db.repository(Lease);
    await repo.insert(lease('ext'));
    const before = await stored('ext');
    await pause(20);
    await repo.upsert(lease('ext'), { ttl: { extend: 60 } });
    expect(await stored('ext')).toEqual(before);
    await repo.upsert(lease('ext'), { ttl: { extend: HOUR } }); // now + 1h is later by the pause
    const later = await stored('ext');
    expect(later.ms).toBeGreaterThan(before.ms as number);
    const window = await during(() => repo.upsert(lease('ext'), { ttl: { extend: 2 * HOUR } }));
    expectNowPlus(await stored('ext'), window, 2 * HOUR);

    await repo.upsert(lease('ext-never'), { ttl: 'never' });
    await repo.upsert(lease('ext-never'), { ttl: { extend: 60 } });
    expect(await stored('ext-never')).toEqual({ text: null, ms: null });

    const fresh = await during(() => repo.insert(lease('ext-new'), { ttl: { extend: 120 } }));
    expectNowPlus(await stored('ext-new'), fresh, 120);
  });

  test('setTtl(n) shortens and lengthens; setTtl({ extend }) only lengthens; the row is not rewritten', async () => {
    const repo = db.repository(Lease);
    await repo.insert(lease('set'));
    const row = await knex(table).where({ id: 'set' }).first();
    let window = await during(() => repo.setTtl('set', 60));
    expectNowPlus(await stored('set'), window, 60);
    window = await during(() => repo.setTtl('set', 2 * HOUR));
    expectNowPlus(await stored('set'), window, 2 * HOUR);
    window = await during(() => repo.setTtl('set', 30));
    expectNowPlus(await stored('set'), window, 30);

    const short = await stored('set');
    expect(await repo.setTtl('set', { extend: 10 })).toBe(true);
    expect(await stored('set')).toEqual(short);
    window = await during(() => repo.setTtl('set', { extend: HOUR }));
    expectNowPlus(await stored('set'), window, HOUR);

    window = await during(() => repo.setTtl('set', 'default'));
    expectNowPlus(await stored('set'), window, HOUR);
    expect(await repo.setTtl('set', 'never')).toBe(true);
    expect(await stored('set')).toEqual({ text: null, ms: null });
    const after = await knex(table).where({ id: 'set' }).first();
    expect({ ...after, expires_at: null }).toEqual({ ...row, expires_at: null });
  });

  test('plain writes re-stamp: the default from now, over a shorter, a longer and a never expiry', async () => {
    const repo = db.repository(Lease);
    for (const [id, ttl] of [
      ['plain-short', 60],
      ['plain-long', 5 * HOUR],
      ['plain-never', 'never'],
    ] as const) {
      await repo.insert(lease(id), { ttl });
      const window = await during(() => repo.upsert(lease(id)));
      expectNowPlus(await stored(id), window, HOUR);
    }
    await repo.insert(lease('plain-again'));
    const first = await stored('plain-again');
    await pause(20);
    await repo.upsert(lease('plain-again'));
    expect((await stored('plain-again')).ms).toBeGreaterThan(first.ms as number);
    const window = await during(() => repo.upsert(lease('plain-again'), { ttl: 90 }));
    expectNowPlus(await stored('plain-again'), window, 90);
  });

  test('ttl() reads the stored instant against the database clock, also after a stall', async () => {
    const repo = db.repository(Lease);
    const started = performance.now();
    await repo.insert(lease('left'), { ttl: 600 });
    // A loaded machine can stall for seconds between two statements: the bracket allows for it.
    await pause(2100);
    expectLeft(await repo.ttl('left'), 600, started);
  });

  test('a second context on the same tables, also on the database clock, sees the same expiry', async () => {
    const other = await connectRelational(model, knex, { ttl: 'emulate' });
    try {
      const started = performance.now();
      await db.repository(Lease).insert(lease('shared'), { ttl: 120 });
      expectLeft(await other.repository(Lease).ttl('shared'), 120, started);
    } finally {
      await other.close();
    }
  });
});
