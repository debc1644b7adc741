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

const ticket = (id: string, holder = 'a'): Ticket => Object.assign(new Ticket(), { id, holder });

describeEngines('conditional writes over an expired-but-stored row (injected clock)', (engine) => {
  const model = new ModelBuilder().entity(Ticket, (e) => e.toCollection(`${prefixFor('cwclock')}_ticket`)).build();
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
    await expect(tickets.delete('del', { ifVersion: 1 })).rejects.toMatchObject({ code: ErrorCodes.STORE_VERSION_CONFLICT });
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
});
