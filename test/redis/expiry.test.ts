/**
 * Real expiry on the Redis 7 server of the test bed: every per-write value and the entity default
 * are written with 1-second lives and watched until the server drops them (passive expiry: a read
 * after the instant finds no key). The checks run side by side, so the file takes about 2.5 s.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, TimeToLive } from '../../src';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';

@Entity()
@TimeToLive({ ttl: 1, perWrite: true })
class Token {
  @Key() id = '';
  @Field() value = '';
}

const model = new ModelBuilder().entity(Token, (e) => e.toCollection('token')).build();
const token = (id: string, value = 'v') => Object.assign(new Token(), { id, value });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls get() until the key is gone; the ms it took from `since`, or Infinity after `maxMs`. */
async function goneAfter(get: () => Promise<unknown>, since: number, maxMs: number): Promise<number> {
  while (Date.now() - since < maxMs) {
    if ((await get()) === undefined) return Date.now() - since;
    await sleep(25);
  }
  return Infinity;
}

describeStore('redis', 'real expiry [redis]', () => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await openStore('redis', model, { prefix: `exp${process.pid}` });
    await opened.db.ensureCollections();
  });
  afterAll(() => opened.close());
  const repo = () => opened.db.repository(Token);

  /** Writes, then measures when the key disappears. */
  async function lifeOf(id: string, write: () => Promise<unknown>, maxMs = 3500): Promise<number> {
    await write();
    return goneAfter(() => repo().get(id), Date.now(), maxMs);
  }

  test('every per-write value and the default, observed on the server', async () => {
    const cases: Record<string, () => Promise<number>> = {
      duration: () => lifeOf('d', () => repo().upsert(token('d'), { ttl: 1 })),
      insertDuration: () => lifeOf('i', () => repo().insert(token('i'), { ttl: 1 })),
      default: () => lifeOf('def', () => repo().upsert(token('def'))),
      defaultWord: () => lifeOf('defw', () => repo().upsert(token('defw'), { ttl: 'default' })),
      never: () => lifeOf('n', () => repo().upsert(token('n'), { ttl: 'never' }), 1600),
      keep: async () => {
        await repo().upsert(token('k', 'before'), { ttl: 'never' });
        await repo().setTtl('k', 1);
        return lifeOf('k', () => repo().upsert(token('k', 'after'), { ttl: 'keep' }));
      },
      extendLonger: async () => {
        await repo().upsert(token('x'), { ttl: 1 });
        return lifeOf('x', () => repo().upsert(token('x'), { ttl: { extend: 2 } }));
      },
      extendShorter: async () => {
        await repo().upsert(token('xs'), { ttl: 2 });
        return lifeOf('xs', () => repo().upsert(token('xs'), { ttl: { extend: 1 } }));
      },
      setTtl: async () => {
        await repo().upsert(token('s'), { ttl: 'never' });
        return lifeOf('s', () => repo().setTtl('s', 1));
      },
      unitOfWork: () => lifeOf('u', () => opened.db.unitOfWork().upsert(token('u')).commit({ ttl: 1 })),
    };
    const names = Object.keys(cases);
    const lives = await Promise.all(names.map((n) => (cases[n] as () => Promise<number>)()));
    const life = Object.fromEntries(names.map((n, i) => [n, lives[i]]));
    for (const n of ['duration', 'insertDuration', 'default', 'defaultWord', 'keep', 'setTtl', 'unitOfWork']) {
      expect([n, life[n]]).toEqual([n, expect.any(Number)]);
      expect(life[n]).toBeLessThan(1300);
    }
    // 'never' outlives the 1 s default; { extend: 2 } over 1 s lives ~2 s; { extend: 1 } over 2 s keeps 2 s.
    expect(life['never']).toBe(Infinity);
    expect(life['extendLonger']).toBeGreaterThan(1500);
    expect(life['extendLonger']).toBeLessThan(2400);
    expect(life['extendShorter']).toBeGreaterThan(1500);
    expect(life['extendShorter']).toBeLessThan(2400);
    expect(await repo().get('k')).toBeUndefined();
  });

  test('an expired key is absent to every read at once, and insert takes its key again', async () => {
    await repo().insert(token('gone'), { ttl: 1 });
    await sleep(1100);
    expect(await repo().exists('gone')).toBe(false);
    expect(await repo().getMany(['gone'])).toEqual([]);
    expect(await repo().count({ id: 'gone' })).toBe(0);
    expect(await repo().ttl('gone')).toBeUndefined();
    await repo().insert(token('gone', 'again'), { ttl: 60 });
    expect(await repo().get('gone')).toMatchObject({ value: 'again' });
  });

  test("{ extend } on a key without expiry leaves it without (GT: no expiry counts as infinite); 'keep' on a new key gets the default", async () => {
    await repo().upsert(token('forever'), { ttl: 'never' });
    await repo().upsert(token('forever'), { ttl: { extend: 5 } });
    expect(await repo().ttl('forever')).toBeNull();
    expect(await repo().setTtl('forever', { extend: 5 })).toBe(true);
    expect(await repo().ttl('forever')).toBeNull();
    await repo().upsert(token('fresh'), { ttl: 'keep' });
    expect(await repo().ttl('fresh')).toBe(1);
  });
});
