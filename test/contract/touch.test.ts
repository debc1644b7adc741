/**
 * Issue 25, finding 4: sliding expiry on read. get(key, { touch }) / getMany(keys, { touch })
 * extend the life of what they return to at least now + touch, in one call; with touchBelow only
 * when less than that fraction of touch remains, so most reads do not write. A touch never
 * shortens a life and never gives one to a record that does not expire. Cassandra refuses it
 * before reading (UnsupportedTtlError). Options are checked alike on every store.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, ModelBuilder, TimeToLive, type PerWriteTtl } from '../../src';
import { forEachStore } from './stores';

const prefix = `tch${process.pid % 10000}`;

@Entity()
@TimeToLive({ ttl: '1h', perWrite: true })
class Visit {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

@Entity()
@TimeToLive(3600)
class Fixed {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

const model = new ModelBuilder()
  .entity(Visit, (e) => e.toCollection(`${prefix}_visit`))
  .entity(Fixed, (e) => e.toCollection(`${prefix}_fixed`))
  .build();

const visit = (id: string) => Object.assign(new Visit(), { id, note: 'n' });
/** Cassandra cannot extend a TTL exactly: it refuses a touch before reading. */
const REFUSES = new Set(['cassandra']);
/** Seconds of slack for the store clocks and whole-second rounding. */
const SLACK = 5;

forEachStore('get/getMany with { touch }', model, prefix, (store, db) => {
  const repo = () => db().repository(Visit);
  const write = (id: string, ttl: PerWriteTtl) => repo().insert(visit(id), { ttl });

  if (REFUSES.has(store.name)) {
    test('a touch is refused before anything is read: UnsupportedTtlError naming the store', async () => {
      await write('r1', 60);
      for (const read of [() => repo().get('r1', { touch: '1h' }), () => repo().getMany(['r1'], { touch: '1h' })]) {
        await expect(read()).rejects.toMatchObject({
          name: 'UnsupportedTtlError',
          code: 'TTL_PER_WRITE_UNSUPPORTED',
          store: 'cassandra',
          entity: 'Visit',
        });
      }
      expect(await repo().ttl('r1')).toBeLessThanOrEqual(60);
      expect(
        db()
          .explain()
          .entries.find((e) => e.entity === 'Visit')?.touch?.support,
      ).toBe('unsupported');
    });
  } else {
    test('get() returns the record and extends its life to now + touch', async () => {
      await write('g1', 60);
      const found = await repo().get('g1', { touch: '2h' });
      expect(found?.id).toBe('g1');
      expect(await repo().ttl('g1')).toBeGreaterThan(7200 - SLACK);
      expect(
        db()
          .explain()
          .entries.find((e) => e.entity === 'Visit')?.touch?.how.length,
      ).toBeGreaterThan(20);
    });

    test('touchBelow: a read writes only when less than that fraction of touch remains', async () => {
      await write('b1', 3000);
      await write('b2', 600);
      expect((await repo().get('b1', { touch: '1h', touchBelow: 0.5 }))?.id).toBe('b1');
      expect((await repo().get('b2', { touch: '1h', touchBelow: 0.5 }))?.id).toBe('b2');
      const b1 = (await repo().ttl('b1')) as number;
      expect(b1).toBeLessThanOrEqual(3000);
      expect(b1).toBeGreaterThan(3000 - SLACK);
      expect(await repo().ttl('b2')).toBeGreaterThan(3600 - SLACK);
    });

    test('a touch never shortens a life, and leaves a record that never expires alone', async () => {
      await write('long', 2 * 86400);
      await write('forever', 'never');
      await repo().get('long', { touch: '1h' });
      await repo().get('forever', { touch: '1h' });
      expect(await repo().ttl('long')).toBeGreaterThan(2 * 86400 - SLACK);
      expect(await repo().ttl('forever')).toBeNull();
    });

    test('getMany() touches every record it returns and omits the missing ones', async () => {
      await write('m1', 60);
      await write('m2', 120);
      const found = await repo().getMany(['m1', 'missing', 'm2'], { touch: '1h' });
      expect(found.map((v) => v.id)).toEqual(['m1', 'm2']);
      expect(await repo().ttl('m1')).toBeGreaterThan(3600 - SLACK);
      expect(await repo().ttl('m2')).toBeGreaterThan(3600 - SLACK);
      expect(await repo().get('missing', { touch: '1h' })).toBeUndefined();
      expect(await repo().exists('missing')).toBe(false);
    });
  }

  test.each([
    [{ tuoch: '1h' }, 'BAD_ARGUMENT', "no option 'tuoch'"],
    [{ touchBelow: 0.5 }, 'BAD_ARGUMENT', 'touchBelow without touch'],
    [{ touch: '1h', touchBelow: 0 }, 'BAD_ARGUMENT', 'touchBelow must be'],
    [{ touch: '1h', touchBelow: 1.5 }, 'BAD_ARGUMENT', 'touchBelow must be'],
    [{ touch: '1h', touchBelow: '0.5' }, 'BAD_ARGUMENT', 'touchBelow must be'],
    [{ touch: 0 }, 'TTL_NOT_POSITIVE', ''],
    ['1h', 'BAD_ARGUMENT', 'as its options'],
  ])('read options %j are refused (%s) before anything is read', async (options, code, words) => {
    await write(`o-${JSON.stringify(options).replace(/\W/g, '')}`, 60);
    for (const read of [() => repo().get('x', options as never), () => repo().getMany(['x'], options as never)]) {
      await expect(read()).rejects.toMatchObject({ code, message: expect.stringContaining(words) });
    }
  });

  test('a touch needs the perWrite declaration, like any per-write TTL', async () => {
    const fixed = db().repository(Fixed);
    await fixed.insert(Object.assign(new Fixed(), { id: 'f1', note: 'n' }));
    await expect(fixed.get('f1', { touch: '1h' })).rejects.toMatchObject({
      code: 'TTL_PER_WRITE_NOT_DECLARED',
      entity: 'Fixed',
      store: store.can.storeName,
    });
    expect((await fixed.get('f1'))?.id).toBe('f1');
  });
});
