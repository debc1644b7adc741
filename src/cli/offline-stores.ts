import type { LifespanConfig } from '../config';
import { LifespanError, ModelError } from '../errors';
import { explain } from '../explain-model';
import type { ExplainReport } from '../explain/report';
import type { Model } from '../model/types';
import { STORE_NAMES, type StoreName } from '../providers/registry';
import { dialectLabel, type RelationalDialect } from '../providers/relational/dialect';
import { toOpenedStore } from './config';
import { parseStores } from './options';
import { runFactory } from './targets';

/** Which store kinds an offline command (explain <file>, snapshot, diff) compiles for, and how. */
export interface OfflineChoice {
  readonly stores: readonly StoreName[];
  readonly relationalTtl: 'ignore' | 'emulate';
  readonly relationalDialect: RelationalDialect;
  /** 'config': the configured stores; 'flags': --store / --emulate; 'default': every kind, no config. */
  readonly source: 'config' | 'flags' | 'default';
  /** What was taken from the config, for the output (config only). */
  readonly said?: string;
}

export interface OfflineFlags {
  readonly store?: string;
  readonly emulate?: boolean;
}

/**
 * The flags when any is given; else the config's stores when there is a config with stores;
 * else every store kind (today's default). The config's store factories are called to learn
 * each store's kind, relational TTL mode and SQL dialect, and disposed again: nothing is queried.
 */
export async function offlineChoice(
  flags: OfflineFlags,
  config: LifespanConfig | undefined,
  configFile: string | undefined,
): Promise<OfflineChoice> {
  const flagged = flags.store !== undefined || flags.emulate === true;
  const factories = config?.stores ?? {};
  if (flagged || Object.keys(factories).length === 0) {
    return {
      stores: parseStores(flags.store),
      relationalTtl: flags.emulate ? 'emulate' : 'ignore',
      relationalDialect: 'sqlite',
      source: flagged ? 'flags' : 'default',
    };
  }
  const kinds = new Set<StoreName>();
  const relational: { name: string; ttl: 'ignore' | 'emulate'; dialect: RelationalDialect }[] = [];
  const parts: string[] = [];
  for (const name of Object.keys(factories)) {
    const opened = toOpenedStore(await runFactory(factories[name] as never, name, true).catch(offlineHint), name);
    try {
      const kind = opened.store.name;
      kinds.add(kind);
      if (kind === 'relational') {
        const told = (opened.store as { explainOptions?: { ttl?: string; dialect?: RelationalDialect } })
          .explainOptions;
        const ttl = told?.ttl === 'emulate' ? 'emulate' : 'ignore';
        const dialect = told?.dialect ?? 'sqlite';
        relational.push({ name, ttl, dialect });
        parts.push(`${name} → relational (ttl: ${ttl}, ${dialectLabel(dialect)} SQL)`);
      } else {
        parts.push(`${name} → ${kind}`);
      }
    } finally {
      await opened.dispose();
    }
  }
  const [first] = relational;
  const otherTtl = relational.find((r) => r.ttl !== first?.ttl);
  if (first && otherTtl) {
    throw new LifespanError(
      'CLI_BAD_OPTIONS',
      `relational stores '${first.name}' (ttl: ${first.ttl}) and '${otherTtl.name}' (ttl: ${otherTtl.ttl}) treat TTLs differently; ` +
        'one offline report holds one relational TTL mode',
      { hint: 'choose with --store <kinds> and --emulate (flags replace the config’s stores)' },
    );
  }
  // The same TTL mode in several dialects means the same expiry; only the DDL differs: the first one's is shown.
  if (first && relational.some((r) => r.dialect !== first.dialect)) {
    parts.push(`the relational commands are ${dialectLabel(first.dialect)}'s, as for '${first.name}'`);
  }
  return {
    stores: STORE_NAMES.filter((s) => kinds.has(s)),
    relationalTtl: first?.ttl ?? 'ignore',
    relationalDialect: first?.dialect ?? 'sqlite',
    source: 'config',
    said: `stores from ${configFile ?? 'the config'}: ${parts.join(', ')}`,
  };
}

/** A factory that failed when called offline: the flags are the way round it. */
function offlineHint(error: unknown): never {
  if (error instanceof LifespanError) {
    error.message +=
      ' (offline commands call each store factory with { offline: true } only to learn its kind: connect only when not offline, or pass --store <kinds> [--emulate] instead)';
  }
  throw error;
}

/**
 * explain() for the choice. Without a config or --store every store kind is judged: a problem
 * that only one store kind has then says that --store leaves out the kinds the project does not use.
 */
export function explainFor(model: Model, choice: OfflineChoice): ExplainReport {
  try {
    return explain(model, {
      stores: choice.stores,
      relational: { ttl: choice.relationalTtl, dialect: choice.relationalDialect },
    });
  } catch (error) {
    if (error instanceof ModelError && choice.source === 'default' && error.problems.some((p) => p.store)) {
      const judged = new Set(error.problems.map((p) => p.store).filter((s): s is string => Boolean(s)));
      const kinds = [...judged].join(', ');
      error.message +=
        `\nhint: every store kind was judged (no config with stores, no --store); if your project does not use ${kinds}, ` +
        `pass --store with the kinds it uses (e.g. --store ${STORE_NAMES.filter((s) => !judged.has(s)).join(',')}), ` +
        'or name your stores in lifespan.config.ts';
    }
    throw error;
  }
}
