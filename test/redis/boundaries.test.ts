/**
 * The Redis store's boundaries (issue 16's items): the database number in a URL, the string size
 * cap, the SCAN bound of plan --counts, the hash tag of an empty partition, the client shapes taken,
 * and the texts. Values lifespan did not write (item 4) are in store.test.ts, on its opened store.
 */
import 'reflect-metadata';
import { constants } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ClusteringKey,
  CreatedAt,
  Entity,
  ErrorCodes,
  Field,
  Key,
  ModelBuilder,
  PartitionKey,
  connect,
} from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { parseRedisUrl } from '../../src/providers/redis/from-url';
import { storeOfUrl } from '../../src/providers/url-openers';

@Entity()
class Memo {
  @Key() id = '';
  @Field() text = '';
}

describe('item 1: redis:// URLs name the redis store and a numeric database', () => {
  test('the database path is a non-negative integer, else STORE_BAD_URL', () => {
    expect(parseRedisUrl('redis://h:6379/0').driverUrl).toBe('redis://h:6379/0');
    expect(parseRedisUrl('redis://h:6379').driverUrl).toBe('redis://h:6379');
    for (const bad of ['redis://h:6379/x', 'redis://h:6379/-1', 'redis://h:6379/1.5']) {
      expect(() => parseRedisUrl(bad)).toThrow(expect.objectContaining({ code: 'STORE_BAD_URL', store: 'redis' }));
    }
  });

  test('connection errors of a redis:// URL name the redis store', () => {
    expect(storeOfUrl('redis://127.0.0.1:6379/1')).toBe('redis');
    expect(storeOfUrl('rediss://h/0')).toBe('redis');
    expect(storeOfUrl('postgres://h/db')).toBe('relational');
    expect(ErrorCodes.STORE_DATABASE_MISSING).toBe('STORE_DATABASE_MISSING');
  });
});

describe('item 3: records near the string limit are refused before encoding', () => {
  test('the cap is the shorter of Redis 512 MiB and the longest Node.js string', async () => {
    const { MAX_RECORD_LENGTH, encodedSizeEstimate } = await import('../../src/providers/redis/codec');
    expect(MAX_RECORD_LENGTH).toBe(Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH));
    expect(encodedSizeEstimate(new Uint8Array(4))).toBe(8);
    expect(encodedSizeEstimate('é')).toBe(2);
  });

  test('a binary member just over the cap once base64 is VALUE_INVALID naming it (no ERR_STRING_TOO_LONG)', async () => {
    @Entity()
    class Blob {
      @Key() id = '';
      @Field({ type: 'binary' }) data = new Uint8Array();
    }
    const { compileModel } = await import('../../src/providers/redis/compile');
    const { encodeRecord } = await import('../../src/providers/redis/codec');
    const cap = Math.min(512 * 1024 * 1024, constants.MAX_STRING_LENGTH);
    const [mapping] = compileModel(new ModelBuilder().entity(Blob, (e) => e.toCollection('blob')).build()).mappings;
    // Base64 of this many bytes is just longer than the cap: about 400 MB, allocated once.
    const data = Buffer.alloc(Math.floor(cap / 4) * 3 + 3);
    expect(() => encodeRecord(mapping as never, { id: 'b', data })).toThrow(
      expect.objectContaining({ code: ErrorCodes.VALUE_INVALID, member: 'data', store: 'redis' }),
    );
    // With a smaller injected cap, the estimate refuses before anything is encoded.
    expect(() => encodeRecord(mapping as never, { id: 'b', data: Buffer.alloc(90) }, 100)).toThrow(
      expect.objectContaining({ code: ErrorCodes.VALUE_INVALID, member: 'data' }),
    );
  }, 30_000);
});

describe('item 2: plan --counts is bounded by the keys SCAN walks, not the keys that match', () => {
  @Entity()
  class Token {
    @Key() id = '';
  }
  const tokens = (ttl: number) =>
    new ModelBuilder().entity(Token, (e) => e.toCollection('token').timeToLive(ttl, { perWrite: true })).build();

  /** A server whose keyspace SCAN walks in `calls` steps, each returning `perCall(step)` keys. */
  function spyClient(calls: number, perCall: (step: number) => string[]) {
    const sent = { SCAN: 0, PTTL: 0 };
    const client = {
      sendCommand: async (args: readonly string[]): Promise<unknown> => {
        switch (args[0]) {
          case 'INFO':
            return '# Server\r\nredis_version:7.2.0\r\n';
          case 'HMGET':
            return ['3600'];
          case 'SCAN': {
            sent.SCAN += 1;
            const step = Number(args[1]);
            return [step + 1 >= calls ? '0' : String(step + 1), perCall(step)];
          }
          case 'PTTL':
            sent.PTTL += 1;
            return 7_200_000;
          default:
            return null;
        }
      },
    };
    return { client, sent };
  }

  test('a keyspace of 150k keys that do not match: SCAN calls stop at the bound, the text says so', async () => {
    const { client, sent } = spyClient(150, () => []);
    const db = await connect(tokens(60), new RedisStore({ client, prefix: 'p:' }));
    const [step] = (await db.plan({ counts: true })).steps;
    expect(sent.SCAN).toBeLessThanOrEqual(100);
    expect(step?.effect?.text).toMatch(/100 SCAN call\(s\).*100000 keys of the database walked/);
    expect(step?.effect?.text).toMatch(/stopped after 100 SCAN call\(s\).*at least/);
  });

  test('matching keys: exactly the bound of PTTLs, and "stopped"', async () => {
    const { client, sent } = spyClient(200, (step) => Array.from({ length: 1032 }, (_, i) => `p:token:${step}-${i}`));
    const db = await connect(tokens(60), new RedisStore({ client, prefix: 'p:' }));
    const [step] = (await db.plan({ counts: true })).steps;
    expect(sent.PTTL).toBe(100_000);
    expect(step?.effect?.text).toMatch(/100000 of 100000 stored keys carry a TTL longer than 60s/);
    expect(step?.effect?.text).toMatch(/stopped after \d+ SCAN call\(s\) and 100000 PTTL\(s\).*at least/);
  });

  test('a small keyspace is walked to its end: no "stopped"', async () => {
    const { client } = spyClient(3, (step) => [`p:token:${step}`]);
    const db = await connect(tokens(60), new RedisStore({ client, prefix: 'p:' }));
    const [step] = (await db.plan({ counts: true })).steps;
    expect(step?.effect?.text).toMatch(/3 of 3 stored keys.*SCAN \+ PTTL over 3 keys: 3 SCAN call\(s\)/);
    expect(step?.effect?.text).not.toMatch(/stopped/);
  });
});

describe('item 5: an empty partition value still makes a hash tag', () => {
  @Entity()
  class Seat {
    @PartitionKey() hall = '';
    @ClusteringKey() seat = '';
  }
  test("partition '' is the tag {%00}, which is not the tag of '%00' or '\\0'", async () => {
    const { compileModel } = await import('../../src/providers/redis/compile');
    const { keyOf, scanPattern } = await import('../../src/providers/redis/keys');
    const [mapping] = compileModel(new ModelBuilder().entity(Seat, (e) => e.toCollection('s')).build()).mappings;
    const m = mapping as never;
    expect(keyOf('p:', m, { hall: '', seat: 'x' })).toBe('p:s:{%00}:x');
    expect(scanPattern('p:', m, { hall: '' })).toBe('p:s:{%00}:*');
    expect(keyOf('p:', m, { hall: '%00', seat: 'x' })).toBe('p:s:{%2500}:x');
    expect(keyOf('p:', m, { hall: '\0', seat: 'x' })).toBe('p:s:{\0}:x');
  });
});

describe('item 6 (issue 27): a node-redis cluster client is taken; another cluster shape is refused at once', () => {
  test('createCluster() is accepted; open() on an unconnected one says so; a cluster-shaped client without masters/slots/nodeClient is REDIS_NO_CLIENT', async () => {
    const { createCluster } = require('redis') as typeof import('redis');
    const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    const store = new RedisStore({ client: cluster });
    expect(store.describe()).toBe('redis cluster');
    await expect(store.open(new ModelBuilder().build())).rejects.toMatchObject({
      code: 'STORE_OPERATION_FAILED',
      message: expect.stringMatching(/knows no primary node/),
      hint: expect.stringMatching(/connect\(\)/),
    });
    const shaped = { sendCommand: async (_key: string, _readonly: boolean, _args: string[]) => null };
    expect(() => new RedisStore({ client: shaped as never })).toThrow(
      expect.objectContaining({
        code: 'STORE_BAD_OPTION',
        message: expect.stringMatching(/not node-redis 5\/6 createCluster/),
      }),
    );
  });
});

describe('item 7: the texts say what the code does', () => {
  @Entity()
  class Stamped {
    @CreatedAt() createdAt = new Date(0);
    @Key() id = '';
  }
  test('explain names the write script for an entity whose upsert keeps @CreatedAt, and no unsourced lag', async () => {
    const { compileModel } = await import('../../src/providers/redis/compile');
    const { explainMapping } = await import('../../src/providers/redis/explain-entry');
    const built = new ModelBuilder()
      .entity(Stamped, (e) => e.toCollection('stamped').timeToLive(60))
      .entity(Memo, (e) => e.toCollection('memo').timeToLive(60))
      .build();
    const [stamped, memo] = compileModel(built).mappings;
    const commands = explainMapping(stamped as never, 'p:').materializedBy.commands;
    expect(commands.join('\n')).toMatch(/^upsert: EVALSHA .* ex 60 .*keeps the stored createdAt/m);
    expect(commands.join('\n')).toMatch(/^insert: SET <key> <json> NX EX 60$/m);
    expect(explainMapping(memo as never, 'p:').materializedBy.commands).toEqual(['SET <key> <json> EX 60']);
    expect(explainMapping(memo as never, 'p:').deletion.lag).not.toMatch(/within seconds/);
  });

  test('the CLI help names redis (docs/cli.md is generated from it)', () => {
    const cli = readFileSync(join(__dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    expect(cli).toMatch(/quick target: .*redis:\/\//);
    expect(cli).toMatch(/with a models file: .*redis/);
  });
});
