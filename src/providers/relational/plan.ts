import { renderStep } from '../../core/plan-gate';
import type { StepEffect } from '../../core/plan';
import type { ColumnSpec, CompiledSchema, TableSpec } from './compile';
import { addColumnSql, createIndexSql, createTableCommands, dropColumnSql, dropIndexSql } from './schema/ddl-sql';
import type { RelationalDialect } from './families/dialects';
import { EXPIRY_COLUMN } from './schema/names';
import { anchorOfCountsFrom } from './schema/ttl-anchor';
import type { LiveTable } from './schema/live-table';
import { RELATIONAL_STEPS } from './steps';
import type { RelationalStep, StepOp, StepPayload } from './step-payload';
import {
  createRecordTableSql,
  deleteRecordSql,
  recordOf,
  sameRecord,
  upsertRecordSql,
  type TtlRecord,
} from './schema/ttl-record';

export { STEP_OPS, type RelationalStep, type StepOp, type StepPayload } from './step-payload';

export interface PlanInput {
  readonly allowDestructive: boolean;
  /** The recorded TTL of each table (lifespan_ttl), to show TTL changes as steps. */
  readonly records: ReadonlyMap<string, TtlRecord>;
  /** Whether lifespan_ttl has to be created with the first record. */
  readonly recordTableExists: boolean;
  /** Count affected rows (plan({ counts: true })). */
  readonly counts?: boolean;
  /** Per table: rows whose expires_at is already due (plan({ counts: true })), when counted. */
  readonly dueRows?: ReadonlyMap<string, number>;
}

/** Diffs the desired tables with the live ones; pure, so it is tested without a server. */
export function planSteps(
  schema: CompiledSchema,
  live: ReadonlyMap<string, LiveTable | null>,
  input: PlanInput,
): RelationalStep[] {
  const steps: RelationalStep[] = [];
  for (const table of schema.tables) {
    const current = live.get(table.table) ?? null;
    if (!current) steps.push(createTable(schema.dialect, table, input));
    else steps.push(...diffTable(schema.dialect, table, current, input));
  }
  return steps;
}

function step(
  table: TableSpec,
  action: StepOp,
  cls: RelationalStep['class'],
  summary: string,
  sql: readonly string[],
  extra: Partial<Pick<RelationalStep, 'ttl' | 'effect'>> & { blocking?: boolean } = {},
): RelationalStep {
  const { blocking = false, ...rest } = extra;
  const payload: StepPayload = { op: action, sql, blocking };
  return {
    entity: table.entity,
    collection: table.table,
    action,
    class: cls,
    summary,
    ...rest,
    // The public flag, for the CLI and reports: set on every conflict, true or false.
    ...(cls === 'conflict' ? { blocking } : {}),
    payload,
    // The command text people review is rendered from the payload apply() runs, by the step table.
    command: renderStep(RELATIONAL_STEPS, payload),
  };
}

/** The SQL that records an emulated table's TTL (creating lifespan_ttl on first use). */
function recordSql(dialect: RelationalDialect, table: TableSpec, input: PlanInput): string[] {
  const upsert = upsertRecordSql(dialect, table.table, recordOf(table));
  return input.recordTableExists ? [upsert] : [createRecordTableSql(dialect), upsert];
}

function createTable(dialect: RelationalDialect, table: TableSpec, input: PlanInput): RelationalStep {
  const expiry = table.expiry ? ` with ${EXPIRY_COLUMN} and index ${table.expiry.index}` : '';
  const sql = createTableCommands(dialect, table);
  if (table.expiry) sql.push(...recordSql(dialect, table, input));
  return step(
    table,
    'create-table',
    'additive',
    `create table ${table.table} (primary key ${table.primaryKey.join(', ')})${expiry}`,
    sql,
    table.expiry ? { ttl: { from: null, to: table.ttlSeconds } } : {},
  );
}

function diffTable(dialect: RelationalDialect, table: TableSpec, live: LiveTable, input: PlanInput): RelationalStep[] {
  const steps: RelationalStep[] = [];
  const liveColumn = (name: string) => live.columns.find((c) => c.name.toLowerCase() === name.toLowerCase());
  for (const column of table.columns) {
    if (column.member === null) continue;
    const found = liveColumn(column.name);
    if (!found) steps.push(addColumn(dialect, table, column));
    else steps.push(...columnConflicts(table, column, found));
  }
  const sameKey =
    live.primaryKey.length === table.primaryKey.length &&
    live.primaryKey.every((k, i) => k.toLowerCase() === table.primaryKey[i]?.toLowerCase());
  if (!sameKey) {
    steps.push(
      step(
        table,
        'primary-key',
        'conflict',
        `table ${table.table} has primary key (${live.primaryKey.join(', ') || 'none'}); the model wants (${table.primaryKey.join(', ')}) — lifespan does not rebuild tables; migrate it yourself`,
        [],
        { blocking: true },
      ),
    );
  }
  const expiryColumn = liveColumn(EXPIRY_COLUMN);
  const expiryIndexes = live.indexes.filter((i) => i.columns[0]?.toLowerCase() === EXPIRY_COLUMN);
  if (table.expiry) {
    const spec = table.columns.find((c) => c.member === null) as ColumnSpec;
    if (!expiryColumn) steps.push(addExpiryColumn(dialect, table, spec, input));
    else {
      steps.push(...columnConflicts(table, spec, expiryColumn));
      const recorded = recordStep(dialect, table, input);
      if (recorded) steps.push(recorded);
    }
    if (expiryIndexes.length === 0) {
      steps.push(
        step(
          table,
          'create-expiry-index',
          'additive',
          `create index ${table.expiry.index} on ${table.table} (${EXPIRY_COLUMN}) for reads and purges`,
          [createIndexSql(dialect, table.table, table.expiry.index, EXPIRY_COLUMN)],
        ),
      );
    }
  } else if (expiryColumn) {
    steps.push(leftoverExpiry(dialect, table, expiryIndexes, input));
  }
  return steps;
}

/**
 * The recorded TTL against the model: nothing recorded yet is an additive step; a different
 * TTL is an in-place step. Either changes no row: emulated expiry is stamped at write, so stored
 * rows keep their expires_at and every write from now on uses the model's TTL.
 */
function recordStep(dialect: RelationalDialect, table: TableSpec, input: PlanInput): RelationalStep | null {
  const wanted = recordOf(table);
  const recorded = input.records.get(table.table);
  if (recorded && sameRecord(recorded, wanted)) return null;
  const sql = recordSql(dialect, table, input);
  if (!recorded) {
    return step(table, 'record-ttl', 'additive', `record the TTL of ${table.table} (${describeRecord(wanted)})`, sql);
  }
  const effect: StepEffect = {
    kind: 'new-writes-only',
    text: `rows written from now on get ${EXPIRY_COLUMN} by the new TTL; stored rows keep theirs until rewritten or setTtl(), so none expires at once`,
    ...(input.counts ? { affected: 0 } : {}),
    verified: true,
    stampedAtWrite: true,
  };
  return step(
    table,
    'set-ttl',
    'in-place',
    `TTL of ${table.table}: ${describeRecord(recorded)} → ${describeRecord(wanted)} (emulated: lifespan stamps the new TTL on every write)`,
    sql,
    { effect, ttl: { from: recorded.seconds, to: wanted.seconds } },
  );
}

function describeRecord(record: TtlRecord): string {
  const anchor = anchorOfCountsFrom(record.countsFrom);
  if (anchor?.kind === 'instant') return `at the instant in ${anchor.member} (@ExpiresAt)`;
  const ttl = record.seconds === null ? 'per-write only' : `${record.seconds}s`;
  if (anchor === undefined) return `${ttl} after ${record.countsFrom}`;
  return anchor.kind === 'write' ? `${ttl} after each write` : `${ttl} after ${anchor.member}`;
}

function addColumn(dialect: RelationalDialect, table: TableSpec, column: ColumnSpec): RelationalStep {
  if (column.nullable) {
    return step(table, 'add-column', 'additive', `add column ${column.name} to ${table.table}`, [
      addColumnSql(dialect, table.table, column),
    ]);
  }
  return step(
    table,
    'add-column',
    'conflict',
    `add NOT NULL column ${column.name} to ${table.table}: existing rows would need a value — add it yourself with a default, or declare the member nullable`,
    [],
    { blocking: true },
  );
}

function columnConflicts(table: TableSpec, column: ColumnSpec, live: LiveTable['columns'][number]): RelationalStep[] {
  const steps: RelationalStep[] = [];
  if (live.type !== column.type.live) {
    steps.push(
      step(
        table,
        'column-type',
        'conflict',
        `column ${table.table}.${column.name} is ${live.type}; the model wants ${column.type.live} — lifespan does not change column types; migrate it yourself`,
        [],
        { blocking: true },
      ),
    );
  } else if (column.type.collation && live.collation !== column.type.collation) {
    steps.push(
      step(
        table,
        'column-collation',
        'conflict',
        `column ${table.table}.${column.name} has collation ${live.collation ?? 'none'}; exact equality needs ${column.type.collation}`,
        [],
        { blocking: true },
      ),
    );
  }
  if (column.nullable && !live.nullable) {
    steps.push(
      step(
        table,
        'column-nullability',
        'conflict',
        `column ${table.table}.${column.name} is NOT NULL; the model allows null — writes of null would fail`,
        [],
        { blocking: true },
      ),
    );
  }
  return steps;
}

function addExpiryColumn(
  dialect: RelationalDialect,
  table: TableSpec,
  spec: ColumnSpec,
  input: PlanInput,
): RelationalStep {
  const effect: StepEffect = {
    kind: 'new-writes-only',
    text: `existing rows get ${EXPIRY_COLUMN} NULL and never expire until rewritten or given a TTL with setTtl(); every write from now on stamps it`,
    ...(input.counts ? { affected: 0 } : {}),
    verified: true,
    stampedAtWrite: true,
  };
  return step(
    table,
    'add-expiry-column',
    'additive',
    `add column ${EXPIRY_COLUMN} to ${table.table} (TTL emulation on)`,
    [addColumnSql(dialect, table.table, spec), ...recordSql(dialect, table, input)],
    { effect, ttl: { from: null, to: table.ttlSeconds } },
  );
}

function leftoverExpiry(
  dialect: RelationalDialect,
  table: TableSpec,
  indexes: readonly { name: string }[],
  input: PlanInput,
): RelationalStep {
  const due = input.dueRows?.get(table.table);
  const effect: StepEffect = {
    kind: 'retroactive',
    text: `lifespan no longer filters or stamps ${EXPIRY_COLUMN}: expired rows not yet purged are visible again`,
    ...(due === undefined ? {} : { affected: due }),
    verified: true,
    // Un-expiry (issue 25): the one consent every store's plan gate asks for (allowUnexpiry).
    unexpires: true,
    ...(due === undefined ? {} : { unexpired: due }),
  };
  if (!input.allowDestructive) {
    return step(
      table,
      'keep-expiry-column',
      'conflict',
      `${table.table}.${EXPIRY_COLUMN} is kept although TTL emulation is off for ${table.entity}; dropping it is destructive — plan with allowDestructive to drop it`,
      [],
      { effect },
    );
  }
  const sql = [
    ...indexes.map((i) => dropIndexSql(dialect, table.table, i.name)),
    dropColumnSql(dialect, table.table, EXPIRY_COLUMN),
    ...(input.records.has(table.table) ? [deleteRecordSql(dialect, table.table)] : []),
  ];
  return step(
    table,
    'drop-expiry-column',
    'destructive',
    `drop column ${EXPIRY_COLUMN} (and its index) from ${table.table}: TTL emulation is off for ${table.entity}`,
    sql,
    { effect },
  );
}
