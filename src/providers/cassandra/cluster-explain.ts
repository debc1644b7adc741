import type { EntityMapping } from './compile';
import { consistencySentence, type CassandraConsistency, type ClientLevels } from './consistency';
import {
  DEFAULT_NODE_SETTINGS,
  type ClusterSettings,
  type NodeSettingName,
  type NodeSettings,
  type SettingSource,
} from './cluster-settings';
import { CLUSTER_SOURCES, DEFAULT_GC_GRACE_SECONDS } from './semantics';

/** What explain() knows of the cluster: everything when connected, the defaults offline. */
export interface ClusterView {
  /** The store's levels; null offline (explain(model) has no store). */
  readonly consistency: CassandraConsistency | null;
  /** Read when the store connected (and after ensureCollections/apply); null offline. */
  readonly settings: ClusterSettings | null;
  /** Offline: the gc_grace_seconds given to explain(model, { cassandra: { gcGraceSeconds } }), if any. */
  readonly givenGcGrace?: number;
  /** The client's own queryOptions levels (wire codes), which apply where the store sets none. */
  readonly clientDefaults?: ClientLevels;
}

export interface GcGrace {
  readonly seconds: number;
  readonly source: SettingSource | 'option';
}

export function gcGraceOf(table: string, view: ClusterView): GcGrace {
  const live = view.settings?.gcGrace.get(table);
  if (live) return live;
  if (view.givenGcGrace !== undefined) return { seconds: view.givenGcGrace, source: 'option' };
  return { seconds: DEFAULT_GC_GRACE_SECONDS, source: 'default' };
}

/**
 * What a cluster does with this table's expired cells, each fact with its source, in one paragraph;
 * for a table whose rows never expire, only the consistency levels.
 */
export function clusterText(mapping: EntityMapping, view: ClusterView): string {
  const levels = `In a cluster: ${consistencySentence(view.consistency, view.clientDefaults)}`;
  if (!expires(mapping)) return levels;
  const gc = gcGraceOf(mapping.table.name, view);
  const node = view.settings?.node ?? DEFAULT_NODE_SETTINGS;
  return [
    levels,
    `Expired cells become tombstones, kept gc_grace_seconds = ${seconds(gc.seconds)} (${gcSource(gc)}) ` +
      `before compaction may purge them (${CLUSTER_SOURCES.tombstones}).`,
    hintSentence(node, gc),
    repairSentence(gc),
    `Tombstones: a read scanning more than ${count(node.tombstoneWarn)} tombstones is logged as a warning, one scanning ` +
      `more than ${count(node.tombstoneFail)} fails (tombstone_warn_threshold / tombstone_failure_threshold, ` +
      `${settingSource(node, 'tombstoneWarn')}; ${CLUSTER_SOURCES.thresholds}).`,
  ].join(' ');
}

function hintSentence(node: NodeSettings, gc: GcGrace): string {
  if (node.hintedHandoff === false) {
    return (
      'Hints: the connected node has hinted_handoff_enabled: false, so a coordinator keeps no writes ' +
      'for a replica that is down: that replica gets them only by repair.'
    );
  }
  const window = `Hints: a coordinator keeps the writes of a replica that is down for at most ${hintWindow(node)}`;
  if (gc.seconds === 0) {
    return `${window}, but a hint lives only gc_grace_seconds, and gc_grace_seconds = 0 disables them for this table (${CLUSTER_SOURCES.gcGraceZero}).`;
  }
  return (
    `${window}, and a hint lives only gc_grace_seconds, here ${seconds(gc.seconds)} (${CLUSTER_SOURCES.hints}). ` +
    `A hint delivered in time carries the write's expired cells too, so a replica that was down past the TTL ` +
    `still hides the value the write replaced: seen on Cassandra 5.0.9 by this project's cluster test, and so in ` +
    `its source, where Hint.isLive checks only the hint's creation time + gc_grace_seconds, not the cells' TTL ` +
    `(${CLUSTER_SOURCES.hintIsLive}) ` +
    `(unlike ${CLUSTER_SOURCES.hintLifetime}, which describes 3.x).`
  );
}

function repairSentence(gc: GcGrace): string {
  const missed =
    'Repair: a replica that missed a TTL overwrite of a value written without TTL (down longer than the hint window, ' +
    'or hints disabled) keeps the old value, and once the other replicas purge their expired cells ' +
    '(expiry + gc_grace_seconds + compaction) read repair or repair copies it back';
  if (gc.seconds === 0) {
    return `${missed}: with gc_grace_seconds = 0 they may purge at the first compaction, so only a repair before it helps (${CLUSTER_SOURCES.hints}).`;
  }
  return `${missed}: repair this table at least every ${seconds(gc.seconds)} (${CLUSTER_SOURCES.hints}).`;
}

function expires(mapping: EntityMapping): boolean {
  return (
    !mapping.isCounter && ((mapping.entity.ttl?.seconds ?? null) !== null || mapping.entity.ttl?.perWrite === true)
  );
}

/** Settings that put TTL data at risk in a cluster. */
export function clusterWarnings(mapping: EntityMapping, view: ClusterView): string[] {
  if (!expires(mapping)) return [];
  const gc = gcGraceOf(mapping.table.name, view);
  const node = view.settings?.node ?? DEFAULT_NODE_SETTINGS;
  // Every warning here is about hints: with one replica per row there is none for a hint to reach.
  if (view.settings?.replicationFactor === 1) return [];
  const out: string[] = [];
  if (gc.seconds === 0) {
    out.push(
      `${mapping.table.name}: gc_grace_seconds = 0 disables hints for this table: a replica that is down ` +
        `during a write never gets it by hint, and a TTL overwrite it missed leaves its older value readable ` +
        `there until repair; raise gc_grace_seconds to at least the hint window, ${hintWindow(node)}`,
    );
  } else if (gc.seconds < node.maxHintWindowSeconds) {
    out.push(
      `${mapping.table.name}: gc_grace_seconds = ${gc.seconds} is shorter than the hint window, ` +
        `${hintWindow(node)}: hints for this table die after ${gc.seconds} s, so a replica ` +
        `down longer than that misses TTL writes (and keeps the values they overwrote) until repair`,
    );
  }
  if (node.hintedHandoff === false) {
    out.push(
      `${mapping.table.name}: the connected node has hinted_handoff_enabled: false: a replica that is down ` +
        `during a write gets it only by repair`,
    );
  }
  return out;
}

function gcSource(gc: GcGrace): string {
  switch (gc.source) {
    case 'live':
      return 'read from the live table';
    case 'not-created':
      return "the table does not exist yet: Cassandra's default, which lifespan's CREATE TABLE keeps";
    case 'option':
      return 'as given to explain()';
    case 'default':
      return "Cassandra's default; db.explain() reads the live table's value on connect";
    default: {
      const never: never = gc.source;
      return never;
    }
  }
}

function hintWindow(node: NodeSettings): string {
  const h = node.maxHintWindowSeconds;
  const text = h % 3600 === 0 ? `${h / 3600} h` : `${h} s`;
  return `${text} (max_hint_window, ${settingSource(node, 'maxHintWindowSeconds')})`;
}

function settingSource(node: NodeSettings, name: NodeSettingName): string {
  return node.sources[name] === 'live' ? "the connected node's setting" : "Cassandra's default";
}

function seconds(n: number): string {
  return n % 86400 === 0 && n > 0 ? `${n} s = ${n / 86400} days` : `${n} s`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
