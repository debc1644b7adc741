import { INSTANT_SAY, withMemberExpiry } from './expiry-instant';
import type { ExplainEntry, PerWriteRow } from '../../explain/entry';
import { cassandraConditionalWrites } from './conditional-writes-explain';
import { perWriteRows, type PerWriteHow } from '../../explain/per-write-rows';
import { perWriteDeclarationHint } from '../../runtime/write-ttl';
import { clusterText, clusterWarnings, gcGraceOf, type ClusterView } from './cluster-explain';
import type { EntityMapping } from './compile';
import { createTable, primaryKey } from './ddl';
import { CASSANDRA_MAX_TTL_SECONDS, SAY, STORE, ceilingText, isoSeconds } from './semantics';
import type { TtlClock } from './ttl-limits';
import { CASSANDRA_UNEXPIRY, CASSANDRA_TOUCH } from './unexpiry';

export interface ExplainContext {
  readonly clock: TtlClock;
  readonly keyspace: string | null;
  /** Consistency levels and the live table and node settings (defaults offline). */
  readonly cluster: ClusterView;
}

/** Defaults closer than this to the ceiling get a warning that writes will start failing. */
const CEILING_WARNING_HORIZON_S = 5 * 365 * 86400;

/** One entity on Cassandra, in Cassandra's words (facts: semantics.ts). */
export function explainMapping(mapping: EntityMapping, ctx: ExplainContext): ExplainEntry {
  const { entity, table } = mapping;
  const seconds = entity.ttl?.seconds ?? null;
  const command = createTable(ctx.keyspace, table);
  const head = { entity: entity.name, collection: table.name, store: STORE, key: keyLayout(mapping) };
  if (mapping.isCounter) {
    return {
      ...head,
      mechanism: 'none',
      seconds,
      countsFrom: null,
      materializedBy: { text: 'a counter table: Cassandra does not expire counters', commands: [command] },
      perWrite: counterRows(),
      conditionalWrites: cassandraConditionalWrites(mapping),
      expiredVisibleUntilDeleted: false,
      deletion: { by: 'nothing: counters do not expire', lag: 'not applicable' },
      changeEffect: { kind: 'none', text: 'a counter table cannot take a TTL' },
      limits: ['counter tables cannot take default_time_to_live, and counter updates cannot carry USING TTL'],
      warnings: [],
      text:
        `${table.name}: counters do not expire (a counter table; Cassandra refuses default_time_to_live on it ` +
        `and USING TTL on counter updates). ${clusterText(mapping, ctx.cluster)}`,
    };
  }
  const gc = SAY.purge(gcGraceOf(table.name, ctx.cluster).seconds);
  const lifetime = seconds !== null ? lifetimeSentence(mapping, seconds) : perWriteOnlySentence(mapping);
  const text = [
    `${table.name}: ${lifetime}`,
    !entity.ttl?.perWrite
      ? `Writes cannot carry their own TTL (perWrite is not declared).`
      : seconds !== null
        ? `A per-write USING TTL n overrides it and USING TTL 0 ('never') removes it; 'keep' and { extend } are unsupported.`
        : `USING TTL 0 ('never') is the same as no TTL; 'keep' and { extend } are unsupported.`,
    `Expired cells stop being returned at once.`,
    `lifespan INSERTs every column with one TTL, so a row expires whole ` +
      `(an UPDATE made outside lifespan renews only its own cells, not the row marker); ` +
      `setTtl rewrites the whole row USING TTL.`,
    `Changing the TTL (ALTER TABLE … WITH default_time_to_live) affects new writes only; ` +
      `existing cells keep the expiry stamped when they were written.`,
    clusterText(mapping, ctx.cluster),
  ].join(' ');
  return withMemberExpiry(mapping.entity, {
    ...head,
    mechanism: seconds !== null ? 'table-default-ttl' : 'none',
    seconds,
    countsFrom: seconds !== null || entity.ttl?.perWrite ? 'last-write' : null,
    materializedBy: {
      text:
        seconds !== null
          ? `table option default_time_to_live = ${seconds} (CREATE TABLE … WITH; changed by ALTER TABLE … WITH)`
          : 'no table option: each write that should expire carries USING TTL n',
      commands: [command],
    },
    perWrite: perWriteRowsOf(mapping, seconds),
    conditionalWrites: cassandraConditionalWrites(mapping),
    expiredVisibleUntilDeleted: false,
    deletion: { by: 'compaction', lag: `invisible at expiry; purged by ${gc}` },
    unexpiry: CASSANDRA_UNEXPIRY,
    touch: CASSANDRA_TOUCH,
    changeEffect: { kind: 'new-writes-only', text: `${SAY.changeEffect}.` },
    limits: limits(ctx),
    warnings: [...warnings(mapping, seconds, ctx), ...clusterWarnings(mapping, ctx.cluster)],
    text,
  });
}

function lifetimeSentence(mapping: EntityMapping, seconds: number): string {
  const anchor = mapping.entity.ttl?.anchor;
  const clause =
    anchor && anchor.source !== 'updatedAt'
      ? `; ${anchor.member} is not consulted, so rewriting a row restarts its clock`
      : '; every write restarts the clock';
  return (
    `rows expire ${seconds}s after each write (table default_time_to_live = ${seconds}, ` +
    `stamped per cell at each write${clause}).`
  );
}

function perWriteOnlySentence(mapping: EntityMapping): string {
  return mapping.entity.ttl?.perWrite
    ? 'rows expire only when a write says so (no table default_time_to_live): ' +
        'INSERT … USING TTL n stamps n s on every cell, counting from that write.'
    : 'rows do not expire (no TTL declared, no table default_time_to_live).';
}

function perWriteRowsOf(mapping: EntityMapping, seconds: number | null): PerWriteRow[] {
  const declared = mapping.entity.ttl?.perWrite === true;
  const notDeclared: PerWriteHow = {
    support: 'unsupported',
    how: `per-write TTL is not declared (lifespan asks for it on every store): ${perWriteDeclarationHint(mapping.entity)}`,
  };
  return perWriteRows({
    duration: declared
      ? { support: 'native', how: 'INSERT … USING TTL n, writing every column with one TTL' }
      : notDeclared,
    default: {
      support: 'native',
      how:
        seconds !== null
          ? `no USING TTL clause: the table's default_time_to_live (${seconds}) applies`
          : 'no USING TTL clause: the row does not expire (the table has no default_time_to_live)',
    },
    never: declared
      ? {
          support: 'native',
          how: `USING TTL 0: the row does not expire${seconds !== null ? ', overriding the table default' : ''}`,
        }
      : notDeclared,
    keep: { support: 'unsupported', how: SAY.keepUnsupported },
    extend: { support: 'unsupported', how: SAY.extendUnsupported },
    at: declared ? { support: 'emulated', how: INSTANT_SAY.atHow } : notDeclared,
  });
}

function counterRows(): PerWriteRow[] {
  const unsupported: PerWriteHow = { support: 'unsupported', how: 'counter updates cannot carry USING TTL' };
  return perWriteRows({
    duration: unsupported,
    default: { support: 'native', how: 'no USING TTL clause: counters do not expire' },
    never: unsupported,
    keep: unsupported,
    extend: unsupported,
    at: unsupported,
  });
}

function limits(ctx: ExplainContext): string[] {
  return [
    `TTL at most ${CASSANDRA_MAX_TTL_SECONDS} s (20 years)`,
    ceilingText(ctx.clock.ceiling),
    "1 s precision, measured by the coordinator's clock",
    INSTANT_SAY.readBack,
  ];
}

function warnings(mapping: EntityMapping, seconds: number | null, ctx: ExplainContext): string[] {
  const out: string[] = [];
  const anchor = mapping.entity.ttl?.anchor;
  if (anchor?.source === 'explicit' && seconds !== null) {
    out.push(
      `the TTL is declared to count from ${anchor.member}, but Cassandra counts from each write of the row: ` +
        `a row expires ${seconds}s after it was last written, whatever ${anchor.member} holds`,
    );
  }
  if (seconds !== null && ctx.clock.ceiling !== null) {
    const lastWrite = new Date((Math.floor(ctx.clock.ceiling.getTime() / 1000) - seconds) * 1000);
    if (lastWrite.getTime() - ctx.clock.now.getTime() < CEILING_WARNING_HORIZON_S * 1000) {
      out.push(
        `writes relying on default_time_to_live = ${seconds} will be rejected after ${isoSeconds(lastWrite)}, ` +
          `when now + ${seconds} s passes the expiration ceiling ${isoSeconds(ctx.clock.ceiling)}`,
      );
    }
  }
  return out;
}

/** Partition key (placement), clustering columns (order within a partition), and the CQL for both. */
function keyLayout(mapping: EntityMapping): string {
  const partition = mapping.partition.map((c) => c.column).join(', ');
  const clustering = mapping.table.columns
    .filter((c) => c.kind === 'clustering')
    .map((c) => `${c.name} ${(c.order ?? 'asc').toUpperCase()}`);
  const order = clustering.length > 0 ? `, clustering columns ${clustering.join(', ')}` : ', no clustering columns';
  return `partition key (${partition})${order}: ${primaryKey(mapping.table)}`;
}
