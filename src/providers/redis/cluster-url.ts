import { LifespanError } from '../../errors';
import type { OpenedStore } from '../connection-target';
import { STORE } from './semantics';
import { RedisStore } from './store';

/**
 * A Redis Cluster URL: `redis+cluster://[user:password@]host:port[,host:port…][/0][?prefix=app:]`
 * (`rediss+cluster://` for TLS). The hosts are seed nodes: the driver learns the rest of the
 * cluster from any one of them. A cluster has database 0 only.
 */
export const CLUSTER_SCHEMES = ['redis+cluster:', 'rediss+cluster:'] as const;
export const CLUSTER_URL_FORM = 'redis+cluster://[user:password@]host:port[,host:port…][?prefix=app:]';
const OPTIONS = ['prefix'];

export interface ClusterUrl {
  readonly nodes: ReadonlyArray<{ readonly host: string; readonly port: number }>;
  readonly tls: boolean;
  readonly username: string | null;
  readonly password: string | null;
  readonly prefix: string;
}

export function isClusterUrl(url: string): boolean {
  return CLUSTER_SCHEMES.some((s) => url.toLowerCase().startsWith(`${s}//`));
}

function bad(problem: string): LifespanError {
  return new LifespanError('STORE_BAD_URL', `the Redis Cluster URL ${problem}`, {
    store: STORE,
    hint: `write it as ${CLUSTER_URL_FORM} (rediss+cluster:// for TLS)`,
  });
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw bad('has a badly escaped user or password');
  }
}

function node(text: string): { host: string; port: number } {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/]+)(?::(\d{1,5}))?$/i.exec(text);
  const port = Number(match?.[2] ?? 6379);
  if (!match || port < 1 || port > 65535) throw bad(`names the node '${text}', not host:port`);
  return { host: (match[1] as string).replace(/^\[|\]$/g, ''), port };
}

export function parseClusterUrl(url: string): ClusterUrl {
  const scheme = CLUSTER_SCHEMES.find((s) => url.toLowerCase().startsWith(`${s}//`));
  if (scheme === undefined) throw bad(`must start with ${CLUSTER_SCHEMES.join(' or ')}//`);
  const rest = url.slice(scheme.length + 2);
  const [beforeQuery = '', query = ''] = rest.split(/\?(.*)/s);
  const slash = beforeQuery.indexOf('/');
  const authority = slash === -1 ? beforeQuery : beforeQuery.slice(0, slash);
  const path = slash === -1 ? '' : beforeQuery.slice(slash);
  if (path !== '' && path !== '/' && path !== '/0')
    throw bad(`names database '${path.slice(1)}': a cluster has database 0 only`);
  const at = authority.lastIndexOf('@');
  const userinfo = at === -1 ? '' : authority.slice(0, at);
  const hosts = (at === -1 ? authority : authority.slice(at + 1)).split(',').filter((h) => h !== '');
  if (hosts.length === 0) throw bad('names no node');
  const colon = userinfo.indexOf(':');
  const params = new URLSearchParams(query);
  const unknown = [...params.keys()].filter((k) => !OPTIONS.includes(k));
  if (unknown.length > 0) throw bad(`has the unknown option(s) ${unknown.join(', ')} (known: ${OPTIONS.join(', ')})`);
  return {
    nodes: hosts.map(node),
    tls: scheme === 'rediss+cluster:',
    username: userinfo === '' ? null : decoded(colon === -1 ? userinfo : userinfo.slice(0, colon)) || null,
    password: colon === -1 ? null : decoded(userinfo.slice(colon + 1)) || null,
    prefix: params.get('prefix') ?? '',
  };
}

/** Opens `redis+cluster://…` for the CLI; loads the driver only here. Connection failures fail at once. */
export async function openRedisClusterUrl(url: string): Promise<OpenedStore> {
  const parsed = parseClusterUrl(url);
  const { createCluster } = require('redis') as typeof import('redis');
  const socket = {
    connectTimeout: 10_000,
    reconnectStrategy: false as const,
    ...(parsed.tls ? { tls: true as const } : {}),
  };
  const cluster = createCluster({
    rootNodes: parsed.nodes.map((n) => ({ socket: { host: n.host, port: n.port } })),
    defaults: {
      socket,
      ...(parsed.username ? { username: parsed.username } : {}),
      ...(parsed.password ? { password: parsed.password } : {}),
    },
  });
  // Without a listener node-redis rethrows socket errors as uncaught; connect() reports them.
  cluster.on('error', () => undefined);
  try {
    await cluster.connect();
  } catch (error) {
    cluster.destroy();
    throw error;
  }
  return {
    store: new RedisStore({ client: cluster, prefix: parsed.prefix }),
    secrets: parsed.password ? [parsed.password] : [],
    dispose: async () => {
      cluster.destroy();
    },
  };
}
