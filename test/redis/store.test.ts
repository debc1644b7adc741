/**
 * Redis-specific behaviour on the test bed's Redis 7 server: the key layout (escaping, hash tag),
 * @CreatedAt kept by an upsert, the recorded default and its plan, and the typed refusals.
 */
import 'reflect-metadata';
import {
  ClusteringKey,
  CreatedAt,
  Entity,
  ErrorCodes,
  Field,
  Key,
  ModelBuilder,
  PartitionKey,
  TimeToLive,
  connect,
} from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { parseRedisUrl } from '../../src/providers/redis/from-url';
import { describeStore } from '../harness/stores';
import { openStore, type OpenedStore } from '../harness/open-store';
import type { TestRedisClient } from '../harness/redis';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Note {
  @Key() id = '';
  @CreatedAt() createdAt = new Date(0);
  @Field() text = '';
}

@Entity()
class Line {
  @PartitionKey() cart = '';
  @ClusteringKey() sku = '';
  @Field() qty = 0;
}

const build = (noteTtl?: number) =>
  new ModelBuilder()
    .entity(Note, (e) =>
      noteTtl ? e.toCollection('note').timeToLive(noteTtl, { perWrite: true }) : e.toCollection('note'),
    )
    .entity(Line, (e) => e.toCollection('line'))
    .build();

const note = (id: string, text = 't') => Object.assign(new Note(), { id, text });
const line = (cart: string, sku: string, qty: number) => Object.assign(new Line(), { cart, sku, qty });

async function keysUnder(client: TestRedisClient, prefix: string): Promise<string[]> {
  const [, keys] = (await client.sendCommand(['SCAN', '0', 'MATCH', `${prefix}*`, 'COUNT', '10000'])) as [
    string,
    string[],
  ];
  return keys.sort();
}

describeStore('redis', 'redis store [redis]', () => {
  let opened: OpenedStore;
  let prefix: string;
  let client: TestRedisClient;
  beforeAll(async () => {
    opened = await openStore('redis', build(), { prefix: `st${process.pid}` });
    prefix = opened.raw.prefix as string;
    client = opened.raw.redis as TestRedisClient;
  });
  afterAll(() => opened.close());

  test('keys are <prefix><collection>:<escaped parts>; a partition key is the hash tag', async () => {
    const odd = 'a:b{c}%d*?[x]\\ é';
    await opened.db.repository(Note).upsert(note(odd));
    await opened.db.repository(Line).upsert(line('c:1', 's{1}', 2));
    const keys = await keysUnder(client, prefix);
    expect(keys).toEqual(
      expect.arrayContaining([`${prefix}note:a%3Ab%7Bc%7D%25d*?[x]\\ é`, `${prefix}line:{c%3A1}:s%7B1%7D`]),
    );
    expect(await opened.db.repository(Note).get(odd)).toMatchObject({ id: odd });
    expect(await opened.db.repository(Note).find({ id: odd })).toHaveLength(1);
    expect(await opened.db.repository(Line).find({ cart: 'c:1' })).toEqual([line('c:1', 's{1}', 2)]);
    expect(await opened.db.repository(Line).count({ cart: 'c:2' })).toBe(0);
  });

  test('an upsert keeps the stored @CreatedAt (one script), and the value is one JSON string', async () => {
    const notes = opened.db.repository(Note);
    await notes.insert(note('c1', 'first'));
    const first = (await notes.get('c1'))?.createdAt;
    await new Promise((r) => setTimeout(r, 20));
    await notes.upsert(note('c1', 'second'));
    await opened.db.unitOfWork().upsert(note('c1', 'third')).commit();
    const back = await notes.get('c1');
    expect(back?.text).toBe('third');
    expect(back?.createdAt).toEqual(first);
    expect(await client.sendCommand(['TYPE', `${prefix}note:c1`])).toBe('string');
  });

  test('a unit of work is atomic: a duplicate insert anywhere writes nothing; insert after delete is fine', async () => {
    await opened.db.repository(Note).upsert(note('dup'));
    const failure = await opened.db
      .unitOfWork()
      .upsert(note('w1'))
      .insert(line('cx', 'a', 1))
      .insert(note('dup'))
      .commit()
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: ErrorCodes.STORE_DUPLICATE_KEY, store: 'redis' });
    expect((failure as Error).message).toMatch(/wrote nothing.*operation 3 of 3/);
    expect(await opened.db.repository(Note).get('w1')).toBeUndefined();
    expect(await opened.db.repository(Line).get({ cart: 'cx', sku: 'a' })).toBeUndefined();
    await opened.db.unitOfWork().delete(Note, 'dup').insert(note('dup', 'new')).commit();
    expect(await opened.db.repository(Note).get('dup')).toMatchObject({ text: 'new' });
  });

  test('plan(): a recorded default per collection; a change is new-writes-only, counted with SCAN + PTTL', async () => {
    const fresh = await opened.db.plan();
    expect(fresh.steps.map((s) => [s.collection, s.class, s.ttl])).toEqual([
      ['note', 'additive', { from: null, to: 3600 }],
      ['line', 'additive', { from: null, to: null }],
    ]);
    await opened.db.ensureCollections();
    expect((await opened.db.plan()).steps).toEqual([]);
    await opened.db.repository(Note).upsert(note('long'), { ttl: 7200 });
    const shorter = await connect(build(60), new RedisStore({ client, prefix }));
    const plan = await shorter.plan({ counts: true });
    expect(plan.steps).toHaveLength(1);
    const [step] = plan.steps;
    expect(step).toMatchObject({
      action: 'set-default-ttl',
      class: 'in-place',
      ttl: { from: 3600, to: 60 },
      effect: { kind: 'new-writes-only', affected: 0 },
    });
    expect(step?.command).toBe(`HSET ${prefix}{lifespan}:default-ttl note 60`);
    // Issue 29: counted from the collection index (built by the earlier find()/count()), not by SCAN.
    expect(step?.effect?.text).toMatch(/carry a TTL longer than 60s.*read the collection index/);
    await expect(shorter.apply({ ...plan, store: 'mongodb' })).rejects.toMatchObject({ code: 'PLAN_WRONG_STORE' });
    const edited = { ...plan, steps: [{ ...step, payload: { ...(step?.payload as object), to: -5 } }] };
    await expect(shorter.apply(edited as never)).rejects.toMatchObject({ code: 'PLAN_BAD_STEP' });
    expect((await shorter.apply(plan)).applied).toHaveLength(1);
    expect((await shorter.plan()).steps).toEqual([]);
    // Stored keys keep their expiry: new writes only.
    expect(await shorter.repository(Note).ttl('long')).toBeGreaterThan(7000);
    await shorter.close();
  });

  const junk: Array<[string, string, RegExp]> = [
    ['not json', 'not json', /is not JSON/],
    ['null', 'null', /not a JSON object/],
    ['[1,2]', '[1,2]', /not a JSON object/],
    ['{}', '{"text":"x"}', /lacks the key member 'id'/],
    ['bad date', '{"id":"b","createdAt":5,"text":"x"}', /holds 5 as date/],
  ];
  for (const [what, value, message] of junk) {
    test(`review 16 item 4, ${what}: get, getMany, find and count fail alike with REDIS_VALUE_UNREADABLE`, async () => {
      const key = `${prefix}note:junk`;
      // A record lifespan wrote (so the collection index lists it), overwritten outside lifespan.
      await opened.db.repository(Note).upsert(note('junk'));
      await client.sendCommand(['SET', key, value]);
      const notes = opened.db.repository(Note);
      const expected = {
        code: 'REDIS_VALUE_UNREADABLE',
        store: 'redis',
        entity: 'Note',
        message: expect.stringMatching(message),
      };
      await expect(notes.get('junk')).rejects.toMatchObject(expected);
      await expect(notes.getMany(['junk'])).rejects.toMatchObject(expected);
      await expect(notes.find()).rejects.toMatchObject(expected);
      await expect(notes.count()).rejects.toMatchObject(expected);
      await client.sendCommand(['DEL', key]);
      expect(await notes.get('junk')).toBeUndefined();
    });
  }

  test('explain names the key layout and the Redis facts', async () => {
    const entry = opened.db.explain().entries.find((e) => e.entity === 'Line');
    expect(entry?.key).toBe(`${prefix}line:{<cart>}:<sku> (hash tag {cart}: a partition stays on one cluster slot)`);
    const text = opened.db.explain().toText();
    for (const claim of [/passive expiry/, /active expiry cycle/, /new writes only/, /volatile-ttl/, /KEEPTTL/]) {
      expect(text).toMatch(claim);
    }
  });
});

describe('redis refusals without a server', () => {
  const model = build();
  const client = (version: string) => ({
    sendCommand: async (args: readonly string[]) =>
      args[0] === 'INFO' ? `# Server\r\nredis_version:${version}\r\n` : null,
  });

  test('a server older than 7.0 is REDIS_SERVER_TOO_OLD naming what to do', async () => {
    await expect(connect(model, new RedisStore({ client: client('6.2.14') }))).rejects.toMatchObject({
      code: 'REDIS_SERVER_TOO_OLD',
      store: 'redis',
      message: expect.stringMatching(/Redis 6\.2\.14.*upgrade the server to Redis 7\.0\+/),
    });
    await expect(connect(model, new RedisStore({ client: client('7.0.0') }))).resolves.toBeDefined();
  });

  test('constructor arguments are typed errors', () => {
    expect(() => new RedisStore({} as never)).toThrow(expect.objectContaining({ code: 'STORE_BAD_OPTION' }));
    expect(() => new RedisStore({ client: client('7.2.0'), prefix: 'a{b}' })).toThrow(
      expect.objectContaining({ code: 'STORE_BAD_OPTION' }),
    );
  });

  test('a record over the string limit is VALUE_INVALID naming its largest member', async () => {
    const { compileModel } = await import('../../src/providers/redis/compile');
    const { encodeRecord } = await import('../../src/providers/redis/codec');
    const [mapping] = compileModel(model).mappings;
    const values = { id: 'x', createdAt: new Date(), text: 'y'.repeat(200) };
    expect(() => encodeRecord(mapping as never, values, 100)).toThrow(
      expect.objectContaining({ code: ErrorCodes.VALUE_INVALID, member: 'text', store: 'redis' }),
    );
    expect(encodeRecord(mapping as never, values)).toContain('"text"');
  });

  test('redis:// URLs: lifespan takes ?prefix=, the password is a secret', () => {
    expect(parseRedisUrl('redis://u:p%40ss@h:6380/2?prefix=app:')).toEqual({
      driverUrl: 'redis://u:p%40ss@h:6380/2',
      prefix: 'app:',
      password: 'p@ss',
      // Both spellings are masked: a driver may echo the URL as typed or the password decoded.
      secrets: ['p@ss', 'p%40ss'],
    });
    expect(() => parseRedisUrl('redis://[bad')).toThrow(expect.objectContaining({ code: 'STORE_BAD_URL' }));
  });
});
