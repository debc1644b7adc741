/**
 * Issue 26 on the emulated expiry with an injected clock: a row past its expires_at but still in
 * the table (no purge ran) is absent to update(), delete({ ifVersion }), getOrInsert() and patch()
 * (version 0), judged by the statement's own WHERE, and what patch leaves of the expiry.
 */
import 'reflect-metadata';
import type { Knex } from 'knex';
import { Entity, ErrorCodes, Field, Key, ModelBuilder, TimeToLive, Version, type StoreContext } from '../../src';
import { describeEngines, prefixFor, TestClock, useEmulatedStore } from './support/engines';

@Entity()
@TimeToLive({ ttl: 60, perWrite: true })
class Ticket {
  @Key() id = '';
  @Field() holder = '';
  @Version() version = 0;
}

/** A TTL counted from a member: a patch of that member moves the expiry with it. */
@Entity()
@TimeToLive({ ttl: 60, member: 'issuedAt', perWrite: true })
class Lease {
  @Key() id = '';
  @Field({ type: 'date' }) issuedAt = new Date(0);
  @Field() holder = '';
  @Version() version = 0;
}

const ticket = (id: string, holder = 'a'): Ticket => Object.assign(new Ticket(), { id, holder });

describeEngines('conditional writes over an expired-but-stored row (injected clock)', (engine) => {
  const model = new ModelBuilder()
    .entity(Ticket, (e) => e.toCollection(`${prefixFor('cwclock')}_ticket`))
    .entity(Lease, (e) => e.toCollection(`${prefixFor('cwclock')}_lease`))
    .build();
  const clock = new TestClock();
  let knex: Knex;
  let db: StoreContext;
  useEmulatedStore(engine, model, (suite) => ({ knex, db } = suite), { clock: clock.read });

  const stored = async (id: string) => knex(model.entities[0]!.collection).where({ id }).count({ n: '*' });
  const count = async (id: string) => Number((await stored(id))[0]?.['n']);

  test('at expires_at exactly the row is absent to every conditional write, though still stored', async () => {
    const tickets = db.repository(Ticket);
    const start = clock.nowMs;
    for (const id of ['upd', 'get', 'patch', 'del']) await tickets.insert(ticket(id), { ttl: 10 });
    clock.at(start + 9999);
    expect(await tickets.patch('patch', { holder: 'b' })).toBe(true);
    clock.at(start + 10_000);
    await expect(tickets.update(Object.assign(ticket('upd'), { version: 1 }))).rejects.toMatchObject({
      code: ErrorCodes.STORE_VERSION_CONFLICT,
    });
    expect(await tickets.patch('patch', { holder: 'c' })).toBe(false);
    await expect(tickets.delete('del', { ifVersion: 1 })).rejects.toMatchObject({
      code: ErrorCodes.STORE_VERSION_CONFLICT,
    });
    expect(await count('upd')).toBe(1);
    expect(await count('del')).toBe(1);
    const result = await tickets.getOrInsert(ticket('get', 'new'));
    expect(result.inserted).toBe(true);
    expect(await tickets.get('get')).toMatchObject({ holder: 'new', version: 1 });
    // The replacement got the default TTL from the clock's now.
    expect(await tickets.ttl('get')).toBe(60);
    clock.at(start);
  });

  test("patch keeps expires_at (default 'keep'); { ttl } sets it from the clock's now", async () => {
    const tickets = db.repository(Ticket);
    const start = clock.nowMs;
    await tickets.insert(ticket('keep'), { ttl: 100 });
    clock.at(start + 40_000);
    expect(await tickets.patch('keep', { holder: 'b' })).toBe(true);
    expect(await tickets.ttl('keep')).toBe(60);
    expect(await tickets.patch('keep', { holder: 'c' }, { ttl: 500 })).toBe(true);
    expect(await tickets.ttl('keep')).toBe(500);
    expect(await tickets.get('keep')).toMatchObject({ holder: 'c', version: 3 });
    clock.at(start);
  });

  test('a patch of the anchor member counts the expiry from its new value (by default and with ttl: default)', async () => {
    const leases = db.repository(Lease);
    const start = clock.nowMs;
    const lease = (id: string) => Object.assign(new Lease(), { id, holder: 'a', issuedAt: new Date(start) });
    for (const id of ['moved', 'moved-default', 'other']) await leases.insert(lease(id));
    clock.at(start + 30_000);
    expect(await leases.ttl('moved')).toBe(30);
    expect(await leases.patch('moved', { issuedAt: new Date(start + 30_000) })).toBe(true);
    expect(await leases.ttl('moved')).toBe(60);
    // ttl: 'default' with the anchor among the changes: the new anchor, not the stored one
    // (PostgreSQL and SQLite evaluate SET on the old row, MariaDB on the new).
    expect(await leases.patch('moved-default', { issuedAt: new Date(start + 20_000) }, { ttl: 'default' })).toBe(true);
    expect(await leases.ttl('moved-default')).toBe(50);
    // A patch of another member leaves the expiry where it was.
    expect(await leases.patch('other', { holder: 'b' })).toBe(true);
    expect(await leases.ttl('other')).toBe(30);
    clock.at(start);
  });
});
