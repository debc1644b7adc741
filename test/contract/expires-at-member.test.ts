/**
 * Issue 25, expiry from a member: an entity with @ExpiresAt() on a Date member, on every store of
 * the contract table. Each record expires at its member's instant (read back with expiresAt()); a
 * null member never expires; changing the member moves the expiry on the next write; a member not
 * in the future is refused and nothing is written; per-write TTLs and setTtl are refused (the
 * member is the one place the expiry lives); and the record is really gone after its instant
 * where the test bed's store enforces expiry.
 */
import 'reflect-metadata';
import { Entity, ExpiresAt, Field, Key, ModelBuilder, TtlError, UnsupportedTtlError } from '../../src';
import { letInstantPass, observedExpiry } from './expiry-observed';
import { forEachStore } from './stores';

const prefix = `cm${process.pid % 10000}`;
const inMs = (ms: number) => new Date(Date.now() + ms);

@Entity()
class Invitation {
  @Key() id = '';
  @Field() email = '';
  @ExpiresAt({ nullable: true }) validUntil: Date | null = null;
}

const model = new ModelBuilder().entity(Invitation, (e) => e.toCollection(`${prefix}_invitation`)).build();
const invitation = (id: string, validUntil: Date | null) =>
  Object.assign(new Invitation(), { id, email: `${id}@example.org`, validUntil });

forEachStore('@ExpiresAt member', model, prefix, (store, db, raw) => {
  const invitations = () => db().repository(Invitation);

  async function expectExpiresAt(id: string, at: Date): Promise<void> {
    const read = await invitations().expiresAt(id);
    expect(read).toBeInstanceOf(Date);
    expect(Math.abs((read as Date).getTime() - at.getTime())).toBeLessThanOrEqual(store.can.instantSlackMs);
  }

  test("each record expires at its member's instant; a null member never expires", async () => {
    const friday = inMs(3 * 86400_000 + 250);
    await invitations().insert(invitation('inv-a', friday));
    await expectExpiresAt('inv-a', friday);
    await invitations().upsert(invitation('inv-never', null));
    expect(await invitations().expiresAt('inv-never')).toBeNull();
    expect(await invitations().get('inv-never')).toMatchObject({ id: 'inv-never', validUntil: null });
    expect((await invitations().get('inv-a'))?.validUntil?.getTime()).toBe(friday.getTime());
  });

  test('changing the member moves the expiry on the next write (both ways)', async () => {
    const first = inMs(3600_000);
    await invitations().upsert(invitation('inv-move', first));
    const later = inMs(7 * 86400_000 + 500);
    await invitations().upsert(invitation('inv-move', later));
    await expectExpiresAt('inv-move', later);
    const sooner = inMs(1800_000 + 750);
    await invitations().upsert(invitation('inv-move', sooner));
    await expectExpiresAt('inv-move', sooner);
    await invitations().upsert(invitation('inv-move', null));
    expect(await invitations().expiresAt('inv-move')).toBeNull();
  });

  test('a unit of work writes each record with its own member', async () => {
    const a = inMs(3600_000 + 111);
    const b = inMs(7200_000 + 222);
    if (store.can.unitOfWorkInOnePartition) {
      // Redis Cluster: a unit stays in one partition, and each Invitation (no @PartitionKey) is its own.
      await db().unitOfWork().insert(invitation('inv-uow-a', a)).commit();
      await db().unitOfWork().upsert(invitation('inv-uow-b', b)).commit();
      const across = db().unitOfWork().insert(invitation('inv-uow-c', a)).upsert(invitation('inv-uow-d', b)).commit();
      await expect(across).rejects.toMatchObject({ code: 'REDIS_CROSS_SLOT', store: store.can.storeName });
      expect(await invitations().get('inv-uow-c')).toBeUndefined();
      expect(await invitations().get('inv-uow-d')).toBeUndefined();
    } else {
      await db().unitOfWork().insert(invitation('inv-uow-a', a)).upsert(invitation('inv-uow-b', b)).commit();
    }
    await expectExpiresAt('inv-uow-a', a);
    await expectExpiresAt('inv-uow-b', b);
  });

  test('a member not in the future is TTL_AT_NOT_FUTURE naming it, and nothing is written', async () => {
    const past = inMs(-60_000);
    const expected = { code: 'TTL_AT_NOT_FUTURE', member: 'validUntil', store: store.can.storeName };
    await expect(invitations().upsert(invitation('inv-past', past))).rejects.toBeInstanceOf(TtlError);
    await expect(invitations().insert(invitation('inv-past', past))).rejects.toMatchObject(expected);
    await expect(db().unitOfWork().upsert(invitation('inv-past', past)).commit()).rejects.toMatchObject(expected);
    await expect(invitations().upsert(invitation('inv-past', past))).rejects.toThrow(
      /validUntil \(@ExpiresAt\), the expiry instant .* is not in the future/,
    );
    expect(await invitations().get('inv-past')).toBeUndefined();
  });

  test('a per-write TTL and setTtl are refused: the member is the one place the expiry lives', async () => {
    await invitations().upsert(invitation('inv-rules', inMs(3600_000)));
    const perWrite = invitations().upsert(invitation('inv-rules', inMs(7200_000)), { ttl: 60 });
    await expect(perWrite).rejects.toBeInstanceOf(UnsupportedTtlError);
    await expect(invitations().upsert(invitation('inv-rules', null), { ttl: { at: inMs(60_000) } })).rejects.toThrow(
      /set validUntil to the instant and write the record/,
    );
    await expect(invitations().setTtl('inv-rules', 600)).rejects.toMatchObject({
      code: 'TTL_SET_UNSUPPORTED',
      member: 'validUntil',
    });
    await expect(invitations().setTtl('inv-rules', 'never')).rejects.toBeInstanceOf(UnsupportedTtlError);
    const left = await invitations().ttl('inv-rules');
    expect(left).toBeGreaterThan(3600 - 15);
    expect(left).toBeLessThanOrEqual(3602);
  });

  const observed = observedExpiry(store, "its member's instant");
  (observed.runs ? test : test.skip)(observed.title, async () => {
    const at = inMs(1500);
    await invitations().upsert(invitation('inv-real', at));
    expect(await invitations().get('inv-real')).toMatchObject({ id: 'inv-real' });
    if (!(await letInstantPass(store, raw(), at))) return;
    expect(await invitations().get('inv-real')).toBeUndefined();
    if (store.can.expiryObservedBy === 'purge') {
      expect((await db().purgeExpired()).deleted).toBeGreaterThanOrEqual(1);
    }
  });
});
