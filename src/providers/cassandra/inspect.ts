import { ErrorCodes } from '../../error-codes';
import { StoreError } from '../../errors';
import type { Executor } from './executor';
import type { ColumnKind, ColumnSpec, KeyspaceSchema, TableSpec } from './schema';
import { STORE } from './semantics';

const KINDS: readonly ColumnKind[] = ['partition_key', 'clustering', 'regular', 'static'];

/**
 * The live tables of a keyspace, read from system_schema in one query per schema table (tables and
 * columns, both restricted to the keyspace partition and the given table names), in compile()'s shape.
 */
export async function inspectKeyspace(
  executor: Executor,
  keyspace: string,
  tableNames: readonly string[],
): Promise<KeyspaceSchema> {
  if (tableNames.length === 0) return { keyspace, tables: [] };
  const [tables, columns] = await Promise.all([
    executor.metadata(
      'SELECT table_name, default_time_to_live, gc_grace_seconds FROM system_schema.tables ' +
        'WHERE keyspace_name = ? AND table_name IN ?',
      [keyspace, [...tableNames]],
      'reading system_schema.tables',
    ),
    executor.metadata(
      'SELECT table_name, column_name, kind, position, clustering_order, type FROM system_schema.columns ' +
        'WHERE keyspace_name = ? AND table_name IN ?',
      [keyspace, [...tableNames]],
      'reading system_schema.columns',
    ),
  ]);
  if (tables.rows.length === 0) await requireKeyspace(executor, keyspace);
  const specs: TableSpec[] = tables.rows.map((t) => {
    const name = String(t['table_name']);
    return {
      name,
      defaultTtl: Number(t['default_time_to_live'] ?? 0),
      gcGraceSeconds: t['gc_grace_seconds'] === null ? null : Number(t['gc_grace_seconds']),
      columns: columns.rows.filter((c) => c['table_name'] === name).map(toColumn),
    };
  });
  return { keyspace, tables: specs };
}

function toColumn(row: Record<string, unknown>): ColumnSpec {
  const kind = String(row['kind']) as ColumnKind;
  const order = String(row['clustering_order'] ?? 'none').toLowerCase();
  return {
    name: String(row['column_name']),
    type: String(row['type']),
    kind: KINDS.includes(kind) ? kind : 'regular',
    position: kind === 'partition_key' || kind === 'clustering' ? Number(row['position']) : -1,
    order: kind === 'clustering' && (order === 'asc' || order === 'desc') ? order : null,
  };
}

async function requireKeyspace(executor: Executor, keyspace: string): Promise<void> {
  const found = await executor.metadata(
    'SELECT keyspace_name FROM system_schema.keyspaces WHERE keyspace_name = ?',
    [keyspace],
    'reading system_schema.keyspaces',
  );
  if (found.rows.length === 0) {
    // The same StoreError as a missing database of any store, whether opened by --url or by a factory.
    throw new StoreError(ErrorCodes.STORE_DATABASE_MISSING, `keyspace '${keyspace}' does not exist`, {
      store: STORE,
      hint:
        `create it first (its replication is yours to choose), e.g. CREATE KEYSPACE "${keyspace}" WITH replication = ` +
        `{'class': 'NetworkTopologyStrategy', 'datacenter1': 3}; names are case-sensitive as stored`,
    });
  }
}
