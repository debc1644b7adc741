/**
 * The Redis 7 server of the test bed: found running on 127.0.0.1:6379, or started by globalSetup
 * (`redis-server --daemonize yes …`, left running like the PostgreSQL/MariaDB servers). Every run
 * writes under its own key prefix (LIFESPAN_REDIS_PREFIX), every suite under a sub-prefix, and
 * each suite deletes its keys when it closes: parallel runs never see each other's keys.
 */
import { createClient } from 'redis';
import { hasCommand, run, sleep } from '../servers/system';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** What the tests use of a node-redis client. */
export interface TestRedisClient {
  sendCommand(args: readonly string[]): Promise<unknown>;
  destroy(): void;
}

const START_ARGS = [
  '--daemonize',
  'yes',
  '--bind',
  '127.0.0.1',
  '-::1',
  '--port',
  '6379',
  '--save',
  '',
  '--appendonly',
  'no',
  '--dir',
  '/var/lib/redis',
  '--logfile',
  '/var/log/redis/ci.log',
];

async function version(url: string): Promise<string | undefined> {
  const client = createClient({ url, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const info = String(await client.sendCommand(['INFO', 'server']));
    return /^redis_version:(\S+)/m.exec(info)?.[1] ?? 'unknown';
  } catch {
    return undefined;
  } finally {
    if (client.isOpen) client.destroy();
  }
}

/** Finds the server or starts it; sets REDIS_URL and a per-run LIFESPAN_REDIS_PREFIX for the workers. */
export async function prepareRedis(log: (m: string) => void): Promise<string> {
  const url = process.env['REDIS_URL'] || DEFAULT_REDIS_URL;
  let found = await version(url);
  let started = false;
  if (found === undefined) {
    if (url !== DEFAULT_REDIS_URL) throw new Error(`nothing answers at REDIS_URL=${url}`);
    if (!hasCommand('redis-server')) throw new Error('redis-server is not installed (apt-get install redis-server)');
    log('Redis does not answer on 127.0.0.1:6379; starting it');
    const result = await run('redis-server', START_ARGS);
    if (result.code !== 0) throw new Error(`redis-server failed to start: ${result.output}`);
    for (let i = 0; i < 50 && found === undefined; i++) {
      await sleep(100);
      found = await version(url);
    }
    if (found === undefined) throw new Error('redis-server started but does not answer on 127.0.0.1:6379');
    started = true;
  }
  if (!/^([7-9]|\d{2,})\./.test(found)) throw new Error(`Redis ${found} at ${url}: lifespan needs 7.0+`);
  process.env['REDIS_URL'] = url;
  process.env['LIFESPAN_REDIS_PREFIX'] = `lifespan_test_${Date.now()}_${process.pid}:`;
  return `Redis ${found}${started ? ' (started it)' : ''} at ${url}, key prefix ${process.env['LIFESPAN_REDIS_PREFIX']}`;
}

export async function redisClient(): Promise<TestRedisClient> {
  const client = createClient({ url: process.env['REDIS_URL'] || DEFAULT_REDIS_URL });
  client.on('error', () => undefined);
  await client.connect();
  return client as unknown as TestRedisClient;
}

/** This run's prefix plus the suite's own part. */
export function testPrefix(suite: string): string {
  return `${process.env['LIFESPAN_REDIS_PREFIX'] ?? `lifespan_test_${process.pid}:`}${suite}:`;
}

/** Deletes every key under a prefix (SCAN + UNLINK). */
export async function deleteKeys(client: TestRedisClient, prefix: string): Promise<void> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`)}*`;
  let cursor = '0';
  do {
    const [next, keys] = (await client.sendCommand(['SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000'])) as [
      string,
      string[],
    ];
    cursor = next;
    if (keys.length > 0) await client.sendCommand(['UNLINK', ...keys]);
  } while (cursor !== '0');
}
