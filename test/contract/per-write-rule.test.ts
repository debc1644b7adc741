/**
 * Issue 13, finding 5: one per-write rule on every store. A per-write TTL on an entity that did
 * not declare `perWrite` is an UnsupportedTtlError (TTL_PER_WRITE_NOT_DECLARED) that says what to
 * declare: on relational emulation and Cassandra as on Cosmos DB and MongoDB, so code tested on
 * SQLite does not break on Cosmos in production. Nothing is written by a refused write. An entity
 * with no TTL at all refuses a per-write TTL the same way. Runs on every store of the contract table.
 */
import 'reflect-metadata';
import {
  CreatedAt,
  Entity,
  Field,
  Key,
  ModelBuilder,
  TimeToLive,
  UnsupportedTtlError,
  type PerWriteTtl,
} from '../../src';
import { forEachStore } from './stores';

const prefix = `pwr${process.pid % 10000}`;

@Entity()
@TimeToLive(3600)
class Plain {
  @Key() id = '';
  @Field() note = '';
  // MongoDB counts an entity TTL from a date member.
  @CreatedAt() createdAt = new Date(0);
}

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Declared {
  @Key() id = '';
  @Field() note = '';
}

@Entity()
class Untimed {
  @Key() id = '';
  @Field() note = '';
}

const model = new ModelBuilder()
  .entity(Plain, (e) => e.toCollection(`${prefix}_plain`))
  .entity(Declared, (e) => e.toCollection(`${prefix}_declared`))
  .entity(Untimed, (e) => e.toCollection(`${prefix}_untimed`))
  .build();

const plain = (id: string) => Object.assign(new Plain(), { id, note: 'n' });
const declared = (id: string) => Object.assign(new Declared(), { id, note: 'n' });
const REFUSED: PerWriteTtl[] = [60, '1h', 'never', 'keep', { extend: 60 }, { at: new Date(Date.now() + 86400_000) }];

forEachStore('per-write TTL needs the perWrite declaration', model, prefix, (store, db) => {
  test.each(REFUSED.map((ttl) => [JSON.stringify(ttl), ttl]))(
    'an undeclared entity refuses ttl %s on a repository write and a unit of work, writing nothing',
    async (label, ttl) => {
      const id = `r-${label.replace(/\W/g, '')}`;
      const expected = { code: 'TTL_PER_WRITE_NOT_DECLARED', entity: 'Plain', store: store.can.storeName };
      const repo = db().repository(Plain);
      await expect(repo.upsert(plain(id), { ttl })).rejects.toBeInstanceOf(UnsupportedTtlError);
      await expect(repo.insert(plain(id), { ttl })).rejects.toMatchObject(expected);
      await expect(db().unitOfWork().upsert(plain(id)).commit({ ttl })).rejects.toMatchObject(expected);
      expect(await repo.get(id)).toBeUndefined();
    },
  );

  test('the error says what to declare', async () => {
    await expect(db().repository(Plain).upsert(plain('hint'), { ttl: 60 })).rejects.toThrow(/perWrite: true/);
  });

  test('the undeclared entity writes with the default, and the declared one takes a per-write TTL', async () => {
    await db().repository(Plain).upsert(plain('default'));
    expect(await db().repository(Plain).get('default')).toMatchObject({ id: 'default' });
    await db().repository(Declared).upsert(declared('own'), { ttl: 60 });
    const left = await db().repository(Declared).ttl('own');
    expect(left).toBeGreaterThan(50);
    expect(left).toBeLessThanOrEqual(60);
  });

  test('explain() lists the same: only default for the undeclared entity', async () => {
    const entry = (await db().explain()).entries.find((e) => e.entity === 'Plain');
    expect(entry?.perWrite.filter((r) => r.support !== 'unsupported').map((r) => r.value)).toEqual(['default']);
    expect(entry?.perWrite.find((r) => r.value === 'duration')?.how).toMatch(/perWrite: true/);
  });

  test('an entity with no TTL refuses a per-write TTL too; written plainly, ttl() is null', async () => {
    const repo = db().repository(Untimed);
    const untimed = (id: string) => Object.assign(new Untimed(), { id, note: 'n' });
    const error = await repo.insert(untimed('u'), { ttl: 60 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedTtlError);
    expect(error).toMatchObject({ code: 'TTL_PER_WRITE_NOT_DECLARED', entity: 'Untimed', store: store.can.storeName });
    expect(await repo.exists('u')).toBe(false);
    await repo.insert(untimed('u'));
    expect(await repo.ttl('u')).toBeNull();
  });
});
