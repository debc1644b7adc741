/**
 * @CreatedAt / @UpdatedAt on the relational store (issue 29's write path): stamped into the bound
 * row only, a caller's real date kept, a TTL counting from @CreatedAt counted from the stamp on
 * insert and from the stored column on update (which never writes @CreatedAt), one member that is
 * both stamped over whatever the instance holds.
 */
import 'reflect-metadata';
import {
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  TimeToLive,
  UpdatedAt,
  Version,
  type StoreContext,
} from '../../src';
import { describeEngines, prefixFor, useEmulatedStore } from './support/engines';

/** Expires an hour after it was created, whatever later writes do. */
@Entity()
@TimeToLive({ ttl: 3600, member: 'createdAt', perWrite: true })
class Invite {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
  @Version() version = 0;
}

/** One member stamped as created and as updated (on insert; an upsert over a live row keeps it, as @CreatedAt). */
@Entity()
class Touched {
  @Key() id = '';
  @CreatedAt() @UpdatedAt() at = new Date(0);
}

const HOUR = 3600_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEngines('timestamps', (engine) => {
  const prefix = prefixFor('stamps');
  const model = new ModelBuilder()
    .entity(Invite, (e) => e.toCollection(`${prefix}_invite`))
    .entity(Touched, (e) => e.toCollection(`${prefix}_touched`))
    .build();
  let db: StoreContext;
  useEmulatedStore(engine, model, (suite) => ({ db } = suite));
  const invite = (id: string, createdAt?: Date) =>
    Object.assign(new Invite(), { id, note: 'n' }, createdAt ? { createdAt } : {});

  test('an insert counts the TTL from the stamp, and leaves the instance as given', async () => {
    const given = invite('i1');
    const before = Date.now();
    await db.repository(Invite).insert(given);
    expect(given.createdAt.getTime()).toBe(0);
    const stored = await db.repository(Invite).get('i1');
    expect(stored!.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect((await db.repository(Invite).expiresAt('i1'))?.getTime()).toBe(stored!.createdAt.getTime() + HOUR);
  });

  test('a real date the caller set is stored as given', async () => {
    const createdAt = new Date(Date.now() - 60_000);
    await db.repository(Invite).insert(invite('i2', createdAt));
    expect((await db.repository(Invite).get('i2'))?.createdAt.getTime()).toBe(createdAt.getTime());
    expect((await db.repository(Invite).expiresAt('i2'))?.getTime()).toBe(createdAt.getTime() + HOUR);
  });

  test('an update of the inserted instance counts from the stored createdAt, which it keeps', async () => {
    const given = invite('i3');
    await db.repository(Invite).insert(given);
    const created = (await db.repository(Invite).get('i3'))!.createdAt.getTime();
    await sleep(30);
    await db.repository(Invite).update(Object.assign(given, { note: 'changed' }));
    const stored = await db.repository(Invite).get('i3');
    expect(stored).toMatchObject({ note: 'changed', version: 2 });
    expect(stored!.createdAt.getTime()).toBe(created);
    expect((await db.repository(Invite).expiresAt('i3'))?.getTime()).toBe(created + HOUR);
  });

  test('an update counted from a stored createdAt that is already due is refused, and the row kept', async () => {
    const createdAt = new Date(Date.now() - 2 * HOUR);
    await db.repository(Invite).insert(invite('i4', createdAt), { ttl: '1d' });
    const given = Object.assign(invite('i4', createdAt), { version: 1, note: 'late' });
    await expect(db.repository(Invite).update(given)).rejects.toMatchObject({
      code: 'RELATIONAL_TTL_ALREADY_EXPIRED',
      message: expect.stringMatching(/update\(\) counts from the stored createdAt/),
    });
    expect(await db.repository(Invite).get('i4')).toMatchObject({ note: 'n', version: 1 });
    // A stale version is still the conflict it always was.
    await expect(db.repository(Invite).update(Object.assign(given, { version: 7 }))).rejects.toMatchObject({
      code: 'STORE_VERSION_CONFLICT',
    });
  });

  test('one member both @CreatedAt and @UpdatedAt is stamped over any value the instance holds', async () => {
    const repo = db.repository(Touched);
    const before = Date.now();
    await repo.insert(Object.assign(new Touched(), { id: 't1', at: new Date(NaN) }));
    expect((await repo.get('t1'))!.at.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});
