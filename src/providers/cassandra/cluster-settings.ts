import type { Executor } from './executor';
import { DEFAULT_GC_GRACE_SECONDS, DEFAULT_MAX_HINT_WINDOW_SECONDS, TOMBSTONE_FAIL, TOMBSTONE_WARN } from './semantics';

/** Where a value explain() reports comes from. */
export type SettingSource = 'live' | 'default' | 'not-created';

/** The settings that decide what a cluster does with expired cells, as explain() reports them. */
export interface ClusterSettings {
  /** gc_grace_seconds per table name. */
  readonly gcGrace: ReadonlyMap<string, { readonly seconds: number; readonly source: SettingSource }>;
  readonly node: NodeSettings;
  /**
   * Replicas of each row in the keyspace (system_schema.keyspaces: SimpleStrategy's
   * replication_factor, or the sum over NetworkTopologyStrategy's datacenters); null when unknown.
   */
  readonly replicationFactor: number | null;
}

/** The node settings explain() reports, each read on its own: one missing from the node stays Cassandra's default. */
export type NodeSettingName = 'maxHintWindowSeconds' | 'hintedHandoff' | 'tombstoneWarn' | 'tombstoneFail';

export interface NodeSettings {
  readonly maxHintWindowSeconds: number;
  readonly hintedHandoff: boolean | null;
  readonly tombstoneWarn: number;
  readonly tombstoneFail: number;
  /** Per setting, 'live': read from the coordinator's system_views.settings; 'default': Cassandra's default. */
  readonly sources: Readonly<Record<NodeSettingName, 'live' | 'default'>>;
}

export const DEFAULT_NODE_SETTINGS: NodeSettings = {
  maxHintWindowSeconds: DEFAULT_MAX_HINT_WINDOW_SECONDS,
  hintedHandoff: null,
  tombstoneWarn: TOMBSTONE_WARN,
  tombstoneFail: TOMBSTONE_FAIL,
  sources: {
    maxHintWindowSeconds: 'default',
    hintedHandoff: 'default',
    tombstoneWarn: 'default',
    tombstoneFail: 'default',
  },
};

/** Cassandra 4.1 renamed the settings with a unit in their value; 4.0 shows max_hint_window_in_ms (plain milliseconds). */
const NODE_SETTINGS = [
  'max_hint_window',
  'max_hint_window_in_ms',
  'hinted_handoff_enabled',
  'tombstone_warn_threshold',
  'tombstone_failure_threshold',
];

/**
 * Reads gc_grace_seconds of each table (system_schema.tables) and the hint and tombstone settings
 * of the node answering (system_views.settings, Cassandra 4.0+). A table not created yet gets the
 * default it will be created with; a node without system_views, Cassandra's defaults.
 */
export async function readClusterSettings(
  executor: Executor,
  keyspace: string,
  tableNames: readonly string[],
): Promise<ClusterSettings> {
  const gcGrace = new Map<string, { seconds: number; source: SettingSource }>();
  for (const name of tableNames) gcGrace.set(name, { seconds: DEFAULT_GC_GRACE_SECONDS, source: 'not-created' });
  const [tables, node, replicationFactor] = await Promise.all([
    tableNames.length === 0
      ? Promise.resolve([])
      : executor
          .metadata(
            'SELECT table_name, gc_grace_seconds FROM system_schema.tables WHERE keyspace_name = ? AND table_name IN ?',
            [keyspace, [...tableNames]],
            'reading gc_grace_seconds from system_schema.tables',
          )
          .then((r) => r.rows),
    readNodeSettings(executor),
    readReplicationFactor(executor, keyspace),
  ]);
  for (const row of tables) {
    const seconds = Number(row['gc_grace_seconds']);
    if (Number.isFinite(seconds)) gcGrace.set(String(row['table_name']), { seconds, source: 'live' });
  }
  return { gcGrace, node, replicationFactor };
}

async function readReplicationFactor(executor: Executor, keyspace: string): Promise<number | null> {
  const result = await executor.metadata(
    'SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?',
    [keyspace],
    'reading the replication of the keyspace from system_schema.keyspaces',
  );
  return replicationFactorOf(result.rows[0]?.['replication']);
}

/** { class, replication_factor } for SimpleStrategy; { class, <datacenter>: n, ... } for NetworkTopologyStrategy. */
export function replicationFactorOf(replication: unknown): number | null {
  if (replication === null || typeof replication !== 'object') return null;
  const entries = Object.entries(replication as Record<string, unknown>).filter(([key]) => key !== 'class');
  const factors = entries.map(([, value]) => Number(value));
  if (factors.length === 0 || factors.some((n) => !Number.isFinite(n))) return null;
  return factors.reduce((a, b) => a + b, 0);
}

async function readNodeSettings(executor: Executor): Promise<NodeSettings> {
  let rows: Record<string, unknown>[];
  try {
    rows = (
      await executor.metadata(
        'SELECT name, value FROM system_views.settings WHERE name IN ?',
        [NODE_SETTINGS],
        'reading hint and tombstone settings from system_views.settings',
      )
    ).rows;
  } catch {
    // Nodes before 4.0 have no system_views: explain() then names Cassandra's defaults as such.
    return DEFAULT_NODE_SETTINGS;
  }
  const value = (name: string): unknown => rows.find((r) => r['name'] === name)?.['value'] ?? undefined;
  const number = (name: string): number | null => {
    const raw = value(name);
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
    return Number.isFinite(n) ? n : null;
  };
  const legacyMs = number('max_hint_window_in_ms');
  const hintWindow =
    durationSeconds(value('max_hint_window')) ?? (legacyMs === null ? null : Math.round(legacyMs / 1000));
  const handoffText = value('hinted_handoff_enabled');
  const handoff = handoffText === 'true' ? true : handoffText === 'false' ? false : null;
  const warn = number('tombstone_warn_threshold');
  const fail = number('tombstone_failure_threshold');
  const from = (found: unknown): 'live' | 'default' => (found === null ? 'default' : 'live');
  return {
    maxHintWindowSeconds: hintWindow ?? DEFAULT_MAX_HINT_WINDOW_SECONDS,
    hintedHandoff: handoff,
    tombstoneWarn: warn ?? TOMBSTONE_WARN,
    tombstoneFail: fail ?? TOMBSTONE_FAIL,
    sources: {
      maxHintWindowSeconds: from(hintWindow),
      hintedHandoff: from(handoff),
      tombstoneWarn: from(warn),
      tombstoneFail: from(fail),
    },
  };
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** system_views.settings shows durations as Cassandra writes them: '3h', '10800000ms', '90m'. */
export function durationSeconds(text: unknown): number | null {
  const match = typeof text === 'string' ? /^(\d+)\s*(ms|s|m|h|d)$/.exec(text.trim().toLowerCase()) : null;
  if (!match?.[1] || !match[2]) return null;
  return Math.round(Number(match[1]) * (UNIT_SECONDS[match[2]] ?? NaN));
}
