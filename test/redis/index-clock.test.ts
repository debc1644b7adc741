/**
 * The collection index's prune reads the server's clock without a command where it can
 * (reindex-lua.ts): a SET with EX / PX that wrote tells it (the key's PEXPIRETIME less the
 * expiry), and a script that writes many records reads TIME once. Each command in a script costs
 * the server about 1.4 µs (docs/performance.md), and every insert runs this script. Counted with
 * INFO commandstats on a server of this file's own (other files' scripts on the shared one read
 * TIME too).
 */
import 'reflect-metadata';
import { createClient } from 'redis';
import { connect, Entity, Field, Key, LifespanError, ModelBuilder, TimeToLive, type StoreContext } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { serverIndexKey } from '../../src/providers/redis/collection-index';
import { OwnRedisServer } from '../harness/own-redis-server';
import { describeStore } from '../harness/stores';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Note {
  @Key() id = '';
  @Field() text = '';
}

const note = (id: string) => Object.assign(new Note(), { id, text: `t${id}` });
const prefix = 'clock:';
const index = serverIndexKey(prefix, 'note');

describeStore('redis', 'Redis collection index: the prune reads the clock without a command where it can', () => {
  let server: OwnRedisServer;
  let client: ReturnType<typeof createClient>;
  let db: StoreContext;
  const command = (args: string[]) => client.sendCommand(args);
  const timeCalls = async () =>
    Number(/^cmdstat_time:calls=(\d+)/m.exec(String(await command(['INFO', 'commandstats'])))?.[1] ?? 0);
  const members = async () => (await command(['ZRANGE', index, '(-inf', '+inf', 'BYSCORE'])) as unknown as string[];

  beforeAll(async () => {
    server = await OwnRedisServer.start();
    client = createClient({ url: `redis://127.0.0.1:${server.port}` });
    client.on('error', () => undefined);
    await client.connect();
    db = await connect(
      new ModelBuilder().entity(Note, (e) => e.toCollection('note')).build(),
      new RedisStore({ client, prefix }),
    );
  });
  afterAll(async () => {
    await db?.close();
    if (client?.isOpen) client.destroy();
    await server?.stop();
  });
  beforeEach(async () => {
    await command(['FLUSHALL']);
    await command(['CONFIG', 'RESETSTAT']);
  });

  test('inserts and upserts with a TTL send no TIME, and each member scores its key’s expiry', async () => {
    const notes = db.repository(Note);
    for (let i = 0; i < 10; i++) await notes.insert(note(`i${i}`), { ttl: 60 });
    for (let i = 0; i < 5; i++) await notes.upsert(note(`u${i}`), { ttl: 120 });
    expect(await timeCalls()).toBe(0);
    for (const id of ['i0', 'i9', 'u4']) {
      const key = `${prefix}note:${id}`;
      expect(Number(await command(['ZSCORE', index, key]))).toBe(Number(await command(['PEXPIRETIME', key])));
    }
  });

  test('the clock read from the write prunes the members already due, and none ahead of now', async () => {
    const notes = db.repository(Note);
    for (let i = 0; i < 3; i++) await notes.insert(note(`short${i}`), { ttl: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    // Members whose keys are gone: one due a second ago, one due in 30 s. A prune that takes the
    // second as due (a "now" later than the server's) drops it: its key is not there.
    const [gone, ahead] = [`${prefix}note:gone`, `${prefix}note:ahead`];
    await command(['ZADD', index, String(Date.now() - 1_000), gone, String(Date.now() + 30_000), ahead]);
    await notes.insert(note('later'), { ttl: 60 });
    expect((await members()).sort()).toEqual([ahead, `${prefix}note:later`].sort());
    expect(await timeCalls()).toBe(0);
  });

  test('a write that did not set an expiry of its own reads TIME, once per script', async () => {
    const notes = db.repository(Note);
    await notes.insert(note('a'), { ttl: 60 });
    // A duplicate: SET … NX wrote nothing, so the key's expiry is not this write's.
    await expect(notes.insert(note('a'), { ttl: 60 })).rejects.toThrow(LifespanError);
    expect(await timeCalls()).toBe(1);
    await notes.upsert(note('b'), { ttl: 'never' });
    expect(await timeCalls()).toBe(2);
    const unit = db.unitOfWork();
    for (let i = 0; i < 5; i++) unit.upsert(note(`w${i}`), { ttl: 'keep' });
    await unit.commit();
    expect(await timeCalls()).toBe(3);
    expect((await members()).length).toBe(7);
  });
});
