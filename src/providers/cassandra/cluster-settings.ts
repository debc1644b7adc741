import type { Executor } from './executor';
import { DEFAULT_GC_GRACE_SECONDS, DEFAULT_MAX_HINT_WINDOW_SECONDS, TOMBSTONE_FAIL, TOMBSTONE_WARN } from './semantics';

/** Where a value explain() reports comes from. */
export type SettingSource = 'live' | 'default' | 'not-created';

/** The settings that decide what a cluster does with expired cells, as explain() reports them. */
export interface ClusterSettings {
  /** gc_grace_seconds per table name. */
  readonly gcGrace: ReadonlyMap<string, { readonly seconds: number; readonly source: SettingSource }>;
  readonly node: NodeSettings;
}

export interface NodeSettings {
  readonly maxHintWindowSeconds: number;
  readonly hintedHandoff: boolean | null;
  readonly tombstoneWarn: number;
  readonly tombstoneFail: number;
  /** 'live': read from the coordinator's system_views.settings; 'default': Cassandra's defaults. */
  readonly source: 'live' | 'default';
}

export const DEFAULT_NODE_SETTINGS: NodeSettings = {
  maxHintWindowSeconds: DEFAULT_MAX_HINT_WINDOW_SECONDS,
  hintedHandoff: null,
  tombstoneWarn: TOMBSTONE_WARN,
  tombstoneFail: TOMBSTONE_FAIL,
  source: 'default',
};

const NODE_SETTINGS = [
  'max_hint_window',
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
  const [tables, node] = await Promise.all([
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
  ]);
  for (const row of tables) {
    const seconds = Number(row['gc_grace_seconds']);
    if (Number.isFinite(seconds)) gcGrace.set(String(row['table_name']), { seconds, source: 'live' });
  }
  return { gcGrace, node };
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
  const value = (name: string) => rows.find((r) => r['name'] === name)?.['value'];
  const count = (name: string, fallback: number) => {
    const n = Number(value(name));
    return value(name) === undefined || value(name) === null || !Number.isFinite(n) ? fallback : n;
  };
  const handoff = value('hinted_handoff_enabled');
  return {
    maxHintWindowSeconds: durationSeconds(value('max_hint_window')) ?? DEFAULT_MAX_HINT_WINDOW_SECONDS,
    hintedHandoff: handoff === 'true' ? true : handoff === 'false' ? false : null,
    tombstoneWarn: count('tombstone_warn_threshold', TOMBSTONE_WARN),
    tombstoneFail: count('tombstone_failure_threshold', TOMBSTONE_FAIL),
    source: 'live',
  };
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** system_views.settings shows durations as Cassandra writes them: '3h', '10800000ms', '90m'. */
export function durationSeconds(text: unknown): number | null {
  const match = typeof text === 'string' ? /^(\d+)\s*(ms|s|m|h|d)$/.exec(text.trim().toLowerCase()) : null;
  if (!match?.[1] || !match[2]) return null;
  return Math.round(Number(match[1]) * (UNIT_SECONDS[match[2]] ?? NaN));
}
