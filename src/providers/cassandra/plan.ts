import { renderStep } from '../../core/plan-gate';
import type { StepEffect } from '../../core/plan';
import { sameCqlType } from './column-types';
import type { EntityMapping } from './compile';
import { addColumn, createTable, dropTable, setDefaultTtl } from './ddl';
import {
  clusteringColumns,
  partitionColumns,
  regularColumns,
  type ColumnSpec,
  type KeyspaceSchema,
  type TableSpec,
} from './schema';
import { CASSANDRA_STEPS } from './steps';
import type { CassandraPlanStep, CassandraStepPayload } from './step-payload';

export type { CassandraPlanStep, CassandraStepPayload } from './step-payload';

/** The command text people review is rendered from the payload apply() runs, by the step table. */
const commandOf = (payload: CassandraStepPayload): string => renderStep(CASSANDRA_STEPS, payload);

export interface DiffOptions {
  readonly allowDestructive?: boolean;
  /** Rows stored per table, when plan({ counts: true }) counted them. */
  readonly rowCounts?: ReadonlyMap<string, number>;
}

/** Desired tables vs live ones → steps, as plain data (no server needed). */
export function diffSchema(
  mappings: readonly EntityMapping[],
  live: KeyspaceSchema,
  options: DiffOptions = {},
): CassandraPlanStep[] {
  const steps: CassandraPlanStep[] = [];
  for (const mapping of mappings) {
    const current = live.tables.find((t) => t.name === mapping.table.name);
    if (!current) steps.push(createStep(live.keyspace, mapping));
    else steps.push(...tableSteps(live.keyspace, mapping, current, options));
  }
  return steps;
}

function createStep(keyspace: string, mapping: EntityMapping): CassandraPlanStep {
  const { table } = mapping;
  const payload: CassandraStepPayload = {
    op: 'create-table',
    statements: [createTable(keyspace, table)],
    table: table.name,
  };
  const ttl = table.defaultTtl > 0 ? ` with default_time_to_live = ${table.defaultTtl}` : '';
  return {
    entity: mapping.entity.name,
    collection: table.name,
    action: 'create-table',
    class: 'additive',
    summary: `create table ${keyspace}.${table.name}${ttl}`,
    command: commandOf(payload),
    ...(table.defaultTtl > 0 ? { ttl: { from: null, to: table.defaultTtl } } : {}),
    effect: { kind: 'none', text: 'creates an empty table; no stored data is touched', verified: true },
    payload,
  };
}

function tableSteps(
  keyspace: string,
  mapping: EntityMapping,
  current: TableSpec,
  options: DiffOptions,
): CassandraPlanStep[] {
  const desired = mapping.table;
  const keyProblem = primaryKeyDifference(desired, current);
  const liveRegular = new Map(regularColumns(current).map((c) => [c.name, c]));
  const typeProblems: string[] = [];
  const additions: CassandraPlanStep[] = [];
  for (const column of regularColumns(desired)) {
    const live = liveRegular.get(column.name);
    if (!live) additions.push(addStep(keyspace, mapping, column));
    else if (!sameCqlType(live.type, column.type)) {
      typeProblems.push(`column ${column.name} is ${live.type} live but ${column.type} in the model`);
    }
  }
  const differences = [...(keyProblem ? [keyProblem] : []), ...typeProblems];
  // Cassandra keeps a record of dropped columns and refuses to re-add one with an incompatible
  // type, so the only destructive way out of either conflict is a new table.
  if (differences.length > 0 && options.allowDestructive) {
    return [recreateStep(keyspace, mapping, current, differences, options)];
  }
  const steps: CassandraPlanStep[] = [];
  if (keyProblem) steps.push(conflictStep(keyspace, mapping, 'change-primary-key', keyProblem, 'a primary key'));
  for (const problem of typeProblems) {
    steps.push(conflictStep(keyspace, mapping, 'change-column-type', problem, "a column's type"));
  }
  steps.push(...additions);
  if (current.defaultTtl !== desired.defaultTtl) steps.push(ttlStep(keyspace, mapping, current, options));
  return steps;
}

function primaryKeyDifference(desired: TableSpec, current: TableSpec): string | undefined {
  const show = (t: TableSpec) => {
    const part = partitionColumns(t).map((c) => `${c.name} ${c.type}`);
    const clus = clusteringColumns(t).map((c) => `${c.name} ${c.type} ${c.order ?? 'asc'}`);
    return `((${part.join(', ')})${clus.length > 0 ? `, ${clus.join(', ')}` : ''})`;
  };
  const same = (a: ColumnSpec[], b: ColumnSpec[]) =>
    a.length === b.length &&
    a.every((c, i) => {
      const o = b[i] as ColumnSpec;
      return c.name === o.name && sameCqlType(c.type, o.type) && (c.order ?? 'asc') === (o.order ?? 'asc');
    });
  if (
    same(partitionColumns(desired), partitionColumns(current)) &&
    same(clusteringColumns(desired), clusteringColumns(current))
  ) {
    return undefined;
  }
  return `the primary key is ${show(current)} live but ${show(desired)} in the model`;
}

function recreateStep(
  keyspace: string,
  mapping: EntityMapping,
  current: TableSpec,
  differences: readonly string[],
  options: DiffOptions,
): CassandraPlanStep {
  const name = `${keyspace}.${current.name}`;
  const statements = [dropTable(keyspace, current.name), createTable(keyspace, mapping.table)];
  const payload: CassandraStepPayload = { op: 'recreate-table', statements, table: current.name };
  return {
    entity: mapping.entity.name,
    collection: current.name,
    action: 'recreate-table',
    class: 'destructive',
    summary: `drop and recreate ${name}: ${differences.join('; ')}`,
    command: commandOf(payload),
    ...(mapping.table.defaultTtl !== current.defaultTtl
      ? { ttl: { from: current.defaultTtl || null, to: mapping.table.defaultTtl || null } }
      : {}),
    effect: dataLoss(`drops ${name} with every row in it`, options.rowCounts?.get(current.name)),
    payload,
  };
}

function conflictStep(
  keyspace: string,
  mapping: EntityMapping,
  action: string,
  difference: string,
  what: string,
): CassandraPlanStep {
  const name = `${keyspace}.${mapping.table.name}`;
  const payload: CassandraStepPayload = { op: 'conflict', statements: [], table: mapping.table.name, keyspace };
  return {
    entity: mapping.entity.name,
    collection: mapping.table.name,
    action,
    class: 'conflict',
    summary: `${name}: ${difference}; Cassandra cannot change ${what} in place`,
    command: commandOf(payload),
    effect: { kind: 'none', text: 'nothing is changed', verified: true },
    payload,
  };
}

function addStep(keyspace: string, mapping: EntityMapping, column: ColumnSpec): CassandraPlanStep {
  const payload: CassandraStepPayload = {
    op: 'add-column',
    statements: [addColumn(keyspace, mapping.table.name, column)],
    table: mapping.table.name,
    column,
  };
  return {
    entity: mapping.entity.name,
    collection: mapping.table.name,
    action: 'add-column',
    class: 'additive',
    summary: `add column ${column.name} ${column.type} to ${keyspace}.${mapping.table.name}`,
    command: commandOf(payload),
    effect: {
      kind: 'none',
      text: 'existing rows read the new column as null; no stored data is touched',
      verified: true,
    },
    payload,
  };
}

function ttlStep(
  keyspace: string,
  mapping: EntityMapping,
  current: TableSpec,
  options: DiffOptions,
): CassandraPlanStep {
  const to = mapping.table.defaultTtl;
  const statements = [setDefaultTtl(keyspace, mapping.table.name, to)];
  const payload: CassandraStepPayload = { op: 'set-default-ttl', statements, table: mapping.table.name };
  const show = (s: number) => (s === 0 ? 'none' : `${s}s`);
  const rows = options.rowCounts?.get(mapping.table.name);
  const stored = rows === undefined ? 'existing cells' : `the ${rows} existing row(s)`;
  const text =
    to === 0
      ? `affects new writes only: they no longer expire by default, while ${stored} keep the expiry stamped when they were written`
      : `affects new writes only: ${stored} keep the expiry stamped when they were written, until rewritten`;
  return {
    entity: mapping.entity.name,
    collection: mapping.table.name,
    action: to === 0 ? 'remove-default-ttl' : 'set-default-ttl',
    class: 'in-place',
    summary: `set default_time_to_live of ${keyspace}.${mapping.table.name}: ${show(current.defaultTtl)} → ${show(to)}`,
    command: commandOf(payload),
    ttl: { from: current.defaultTtl === 0 ? null : current.defaultTtl, to: to === 0 ? null : to },
    effect: {
      kind: 'new-writes-only',
      text,
      // Nothing expires because of the ALTER itself (stamped-at-write; proven by test/cassandra).
      ...(rows === undefined ? {} : { affected: 0 }),
      verified: true,
    },
    payload,
  };
}

function dataLoss(text: string, rows: number | undefined): StepEffect {
  return { kind: 'none', text: rows === undefined ? text : `${text} (${rows} row(s) stored)`, verified: true };
}
