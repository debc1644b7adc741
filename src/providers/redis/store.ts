import { LifespanError, StoreError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { Model } from '../../model/types';
import { driverOption } from '../../runtime/store-options';
import type { Store, StoreSession } from '../contract';
import { compileModel } from './compile';
import { call, type RedisClientLike } from './gateway';
import { MIN_SERVER_VERSION, STORE, versionAtLeast } from './semantics';
import { RedisSession } from './session';

export interface RedisStoreOptions {
  /** A connected node-redis client (`await createClient({ url }).connect()`); lifespan never closes it. */
  readonly client: RedisClientLike;
  /** Put before every key lifespan writes (e.g. 'app:'), so several models or runs share one database. */
  readonly prefix?: string;
}

/** `lifespan-orm/redis`: a model on a Redis 7.0+ database, with per-key expiry as the mechanism. */
export class RedisStore implements Store {
  readonly name = STORE;
  private readonly client: RedisClientLike;
  private readonly prefix: string;

  constructor(options: RedisStoreOptions) {
    const client = driverOption<RedisClientLike>(options, 'client', (c) => typeof c.sendCommand === 'function', {
      store: STORE,
      code: 'STORE_BAD_OPTION',
      message: 'new RedisStore({ client }) needs a connected node-redis client',
      hint: "const client = await createClient({ url: 'redis://localhost:6379' }).connect(); new RedisStore({ client })",
    });
    // node-redis's cluster client has sendCommand(firstKey, isReadonly, args): it would take
    // lifespan's command for a key and fail later as an unrelated "INFO server failed".
    if ('slots' in client || client.sendCommand.length >= 3) {
      throw new LifespanError(
        'STORE_BAD_OPTION',
        'new RedisStore({ client }) got a Redis Cluster client, which lifespan does not support yet',
        {
          store: STORE,
          hint: 'pass a node-redis client of one server (createClient()), not createCluster(): see docs/stores/redis.md',
        },
      );
    }
    const prefix = options.prefix ?? '';
    if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
      throw new LifespanError('STORE_BAD_OPTION', `prefix must be a string without { or }, got ${showValue(prefix)}`, {
        store: STORE,
        hint: "braces would become the keys' cluster hash tag: use e.g. prefix: 'app:'",
      });
    }
    this.client = client;
    this.prefix = prefix;
  }

  describe(): string {
    const options = (this.client as { options?: { url?: unknown; socket?: { host?: unknown; port?: unknown } } })
      .options;
    const socket = options?.socket;
    const where = typeof socket?.host === 'string' ? ` on ${socket.host}:${String(socket.port ?? 6379)}` : '';
    return `redis${where}${this.prefix ? ` (prefix '${this.prefix}')` : ''}`;
  }

  /** Checks once that the server is Redis 7.0+ (EXPIRE … GT); the model is compiled without a round trip. */
  async open(model: Model): Promise<StoreSession> {
    const compiled = compileModel(model);
    await requireVersion(this.client);
    return new RedisSession(this.client, this.prefix, compiled, this.describe());
  }
}

async function requireVersion(client: RedisClientLike): Promise<void> {
  const info = await call<string>(client, ['INFO', 'server'], { operation: 'INFO server' });
  const version = /^redis_version:(\S+)/m.exec(String(info))?.[1] ?? 'unknown';
  if (versionAtLeast(version, MIN_SERVER_VERSION)) return;
  throw new StoreError('REDIS_SERVER_TOO_OLD', `the server is Redis ${version}; lifespan needs Redis 7.0 or later`, {
    store: STORE,
    hint: 'upgrade the server to Redis 7.0+ (EXPIRE … GT, which { extend } and setTtl use, is new in 7.0)',
  });
}
