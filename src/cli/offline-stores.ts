import type { LifespanConfig } from '../config';
import { LifespanError, ModelError } from '../errors';
import { explain } from '../explain-model';
import type { ExplainReport } from '../explain/report';
import type { Model } from '../model/types';
import { isStoreName, STORE_NAMES, type StoreName } from '../providers/registry';
import { dialectLabel, type RelationalTtlWord, type SqlDialect } from './review/sql-vocabulary';
import { toOpenedStore } from './config';
import { parseStores } from './options';
import { firstLine } from './first-line';
import type { Io } from './io';
import type { SecretMasker } from './mask';
import { runFactory } from './targets';

/** Which store kinds an offline command (explain <file>, snapshot, diff) compiles for, and how. */
export interface OfflineChoice {
  readonly stores: readonly StoreName[];
  readonly relationalTtl: RelationalTtlWord;
  readonly relationalDialect: SqlDialect;
  /** 'config': the configured stores (narrowed by any flags); 'flags': --store / --emulate, no config; 'default': neither. */
  readonly source: 'config' | 'flags' | 'default';
  /** What was taken from the config, for the output (config only). */
  readonly said?: string;
}

export interface OfflineFlags {
  readonly store?: string;
  readonly emulate?: boolean;
}

/** How long an offline command waits for one store factory before going on without the config's stores. */
export const OFFLINE_FACTORY_TIMEOUT_MS = 5000;

interface LearnedStore {
  readonly name: string;
  readonly kind: StoreName;
  readonly ttl?: RelationalTtlWord;
  readonly dialect?: SqlDialect | undefined;
  /** mysql2 without knex's `version`: MySQL or MariaDB cannot be told offline. */
  readonly guessed?: boolean;
}

/**
 * The config's stores when there is a config with stores, narrowed by the flags: --store picks the
 * kinds to judge, --emulate overrides only the relational TTL mode (the configured SQL dialect
 * stays). Without a config's stores: the flags, else every store kind. The config's store
 * factories are called with { offline: true } to learn each store's kind, relational TTL mode and
 * SQL dialect, and disposed again: nothing is queried. A factory that fails or does not return
 * within OFFLINE_FACTORY_TIMEOUT_MS (it needs credentials CI lacks, or connects) does not fail the
 * offline command: `io` is told, and the flags or the default are used.
 */
export async function offlineChoice(
  flags: OfflineFlags,
  config: LifespanConfig | undefined,
  configFile: string | undefined,
  io?: Pick<Io, 'err' | 'masker'>,
): Promise<OfflineChoice> {
  const flagged = flags.store !== undefined || flags.emulate === true;
  const fromFlags: OfflineChoice = {
    stores: parseStores(flags.store),
    relationalTtl: flags.emulate ? 'emulate' : 'ignore',
    relationalDialect: 'sqlite',
    source: flagged ? 'flags' : 'default',
  };
  const factories = config?.stores ?? {};
  if (Object.keys(factories).length === 0) return fromFlags;
  let learned: LearnedStore[];
  try {
    learned = await learnStores(factories, io?.masker);
  } catch (error) {
    const instead = flagged ? '--store / --emulate' : 'the default store kinds (diff: the snapshot’s)';
    io?.err(
      `note: ${firstLine(error)}; going on with ${instead} (offline commands call each store factory with { offline: true }: connect only when not offline)
`,
    );
    return fromFlags;
  }
  return narrowed(learned, flags, fromFlags, configFile);
}

async function learnStores(
  factories: Record<string, unknown>,
  masker: SecretMasker | undefined,
): Promise<LearnedStore[]> {
  const learned: LearnedStore[] = [];
  for (const name of Object.keys(factories)) {
    const opened = toOpenedStore(await withinTimeout(runFactory(factories[name] as never, name, true), name), name);
    opened.secrets.forEach((s) => masker?.add(s));
    try {
      const kind = opened.store.name;
      // A store written outside lifespan has no driver-free explainer to compile for offline.
      if (!isStoreName(kind)) continue;
      if (kind !== 'relational') learned.push({ name, kind });
      else {
        const told = (
          opened.store as {
            explainOptions?: { ttl?: RelationalTtlWord; dialect?: SqlDialect; guessed?: boolean };
          }
        ).explainOptions;
        learned.push({
          name,
          kind,
          ttl: told?.ttl ?? 'ignore',
          dialect: told?.dialect,
          guessed: told?.guessed === true,
        });
      }
    } finally {
      await opened.dispose();
    }
  }
  return learned;
}

function withinTimeout<T>(made: Promise<T>, name: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new LifespanError(
            'CLI_FACTORY_FAILED',
            `the factory of store '${name}' did not return within ${OFFLINE_FACTORY_TIMEOUT_MS / 1000} s`,
          ),
        ),
      OFFLINE_FACTORY_TIMEOUT_MS,
    );
  });
  return Promise.race([made, late]).finally(() => clearTimeout(timer));
}

function narrowed(
  learned: readonly LearnedStore[],
  flags: OfflineFlags,
  fromFlags: OfflineChoice,
  configFile: string | undefined,
): OfflineChoice {
  const kinds = new Set<StoreName>(flags.store !== undefined ? fromFlags.stores : learned.map((l) => l.kind));
  const relational = learned.filter((l) => l.kind === 'relational');
  const [first] = relational;
  const parts = learned.map((l) =>
    l.kind === 'relational'
      ? `${l.name} → relational (ttl: ${l.ttl}, ${sqlOf(l.dialect, l.guessed)})`
      : `${l.name} → ${l.kind}`,
  );
  const otherTtl = relational.find((r) => r.ttl !== first?.ttl);
  if (first && otherTtl && kinds.has('relational') && !flags.emulate) {
    throw new LifespanError(
      'CLI_BAD_OPTIONS',
      `relational stores '${first.name}' (ttl: ${first.ttl}) and '${otherTtl.name}' (ttl: ${otherTtl.ttl}) treat TTLs differently; ` +
        'one offline report holds one relational TTL mode',
      { hint: 'pass --emulate to judge the relational stores as emulating, or --store with the other kinds only' },
    );
  }
  // The same TTL mode in several dialects means the same expiry; only the DDL differs: the first one's is shown.
  if (first && relational.some((r) => r.dialect !== first.dialect)) {
    parts.push(`the relational commands are ${sqlOf(first.dialect)}, as for '${first.name}'`);
  }
  if (flags.store !== undefined) parts.push(`judged: --store ${flags.store}`);
  if (flags.emulate) parts.push('relational ttl: emulate (--emulate)');
  return {
    stores: STORE_NAMES.filter((s) => kinds.has(s)),
    relationalTtl: flags.emulate ? 'emulate' : (first?.ttl ?? 'ignore'),
    relationalDialect: first?.dialect ?? 'sqlite',
    source: 'config',
    said: `stores from ${configFile ?? 'the config'}: ${parts.join(', ')}`,
  };
}

/** A driver lifespan cannot tell offline is said so, not silently shown as SQLite. */
function sqlOf(dialect: SqlDialect | undefined, guessed = false): string {
  if (dialect === undefined) return 'a knex client lifespan does not know offline: SQLite SQL shown';
  return guessed ? 'MySQL/MariaDB SQL (MariaDB’s shown; set knex version to tell)' : `${dialectLabel(dialect)} SQL`;
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
