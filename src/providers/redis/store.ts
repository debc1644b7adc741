import { LifespanError, StoreError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { Model } from '../../model/types';
import { driverOption } from '../../runtime/store-options';
import type { Store, StoreSession } from '../contract';
import { compileModel } from './compile';
import { call, type RedisClientLike, type RedisClusterLike } from './gateway';
import { clusterNodes, serverNodes } from './nodes';
import { replicaAcksOption } from './replica-acks';
import { RedisRouter, type ReplicaAcks } from './router';
import { MIN_SERVER_VERSION, STORE, versionAtLeast } from './semantics';
import { RedisSession } from './session';

export interface RedisStoreOptions {
  /**
   * A connected node-redis client of one server (`await createClient({ url }).connect()`) or of a
   * Redis Cluster (`await createCluster({ rootNodes }).connect()`); lifespan never closes it.
   */
  readonly client: RedisClientLike | RedisClusterLike;
  /** Put before every key lifespan writes (e.g. 'app:'), so several models or runs share one database. */
  readonly prefix?: string;
  /**
   * After each write, WAIT until this many replicas of the key's primary hold it (at most
   * `timeoutMs`, default 1000); fewer fail the write with REDIS_NOT_REPLICATED. Without it a write
   * is acknowledged by the primary alone, and a failover right after it can lose it.
   */
  readonly waitForReplicas?: number | { readonly replicas: number; readonly timeoutMs?: number };
}

const KNOWN_OPTIONS = ['client', 'prefix', 'waitForReplicas'];

/** `lifespan-orm/redis`: a model on a Redis 7.0+ database or Redis Cluster, with per-key expiry as the mechanism. */
export class RedisStore implements Store {
  readonly name = STORE;
  private readonly router: RedisRouter;
  private readonly prefix: string;

  constructor(options: RedisStoreOptions) {
    const client = driverOption<RedisClientLike | RedisClusterLike>(
      options,
      'client',
      (c) => typeof c.sendCommand === 'function',
      {
        store: STORE,
        code: 'STORE_BAD_OPTION',
        message: 'new RedisStore({ client }) needs a connected node-redis client',
        hint: "const client = await createClient({ url: 'redis://localhost:6379' }).connect(); new RedisStore({ client }) (createCluster() for Redis Cluster)",
      },
    );
    const unknown = Object.keys(options).filter((k) => !KNOWN_OPTIONS.includes(k));
    if (unknown.length > 0) {
      throw new LifespanError('STORE_BAD_OPTION', `new RedisStore() does not take ${unknown.join(', ')}`, {
        store: STORE,
        hint: `its options are ${KNOWN_OPTIONS.join(', ')}`,
      });
    }
    const prefix = options.prefix ?? '';
    if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
      throw new LifespanError('STORE_BAD_OPTION', `prefix must be a string without { or }, got ${showValue(prefix)}`, {
        store: STORE,
        hint: "braces would become the keys' cluster hash tag: use e.g. prefix: 'app:'",
      });
    }
    const acks: ReplicaAcks | undefined = replicaAcksOption(options.waitForReplicas);
    this.router = new RedisRouter(nodesOf(client), acks);
    this.prefix = prefix;
  }

  describe(): string {
    const where = this.router.nodes.addresses();
    const on = where.length === 0 ? '' : ` on ${where.join(',')}`;
    return `redis${this.router.cluster ? ' cluster' : ''}${on}${this.prefix ? ` (prefix '${this.prefix}')` : ''}`;
  }

  /** Checks once that every primary is Redis 7.0+ (EXPIRE … GT); the model is compiled without a round trip. */
  async open(model: Model): Promise<StoreSession> {
    const compiled = compileModel(model);
    await requireVersion(this.router);
    return new RedisSession(this.router, this.prefix, compiled, this.describe());
  }
}

/**
 * node-redis's cluster client has sendCommand(firstKey, isReadonly, args), a slot map and each
 * primary's client; a client of one server has sendCommand(args).
 */
function nodesOf(client: RedisClientLike | RedisClusterLike) {
  const shaped = client as Partial<RedisClusterLike>;
  const clusterLike = 'slots' in client || 'masters' in client || client.sendCommand.length >= 3;
  if (!clusterLike) return serverNodes(client as RedisClientLike);
  if (Array.isArray(shaped.masters) && Array.isArray(shaped.slots) && typeof shaped.nodeClient === 'function') {
    return clusterNodes(client as RedisClusterLike);
  }
  throw new LifespanError(
    'STORE_BAD_OPTION',
    'new RedisStore({ client }) got a cluster client that is not node-redis 5/6 createCluster() (no masters, slots and nodeClient)',
    {
      store: STORE,
      hint: "const client = await createCluster({ rootNodes: [{ url: 'redis://host:7000' }] }).connect(): see docs/stores/redis.md#cluster",
    },
  );
}

async function requireVersion(router: RedisRouter): Promise<void> {
  for (const primary of await router.nodes.primaries()) {
    const info = await call<string>(primary, ['INFO', 'server'], { operation: 'INFO server' });
    const version = /^redis_version:(\S+)/m.exec(String(info))?.[1] ?? 'unknown';
    if (versionAtLeast(version, MIN_SERVER_VERSION)) continue;
    throw new StoreError('REDIS_SERVER_TOO_OLD', `the server is Redis ${version}; lifespan needs Redis 7.0 or later`, {
      store: STORE,
      hint: 'upgrade the server to Redis 7.0+ (EXPIRE … GT, which { extend } and setTtl use, is new in 7.0)',
    });
  }
}
