import type { ErrorPlace } from '../../errors';
import { causeMessages, invalidCursor, resumeFrom } from '../../runtime/cursor';
import { sumBounded } from '../../runtime/bounded';
import { runDeleteMany, type DeleteManyRequest } from '../../runtime/delete-many';
import { pageOf, pageRequest } from '../../runtime/pages';
import type { Page } from '../contract';
import type { ColumnMapping, EntityMapping } from './compile';
import type { SessionContext } from './context';
import { quoteId } from './cql';
import type { Params, Row } from './executor';
import { rowToEntity } from './rows';
import { STORE } from './semantics';

/** What findPage / deleteMany need of a repository: the session, the table, its filter builder. */
export interface CassandraPages {
  readonly ctx: SessionContext;
  readonly mapping: EntityMapping;
  readonly place: ErrorPlace;
  filter(where: Record<string, unknown>): { columns: ColumnMapping[]; params: Params };
}

/**
 * The driver's paging state is hex text of whole bytes; anything else cannot have come from a
 * page. It holds the last partition key and clustering of the page (a partition key may be up to
 * 64 KB), so its length is bounded only by the cursor's own limit.
 */
const PAGE_STATE = /^(?:[0-9a-f]{2})+$/;

/** The node's refusal of a paging state it did not make (a protocol error naming the paging state). */
const REFUSED_PAGE_STATE = /invalid value for the paging state/i;

/**
 * findPage(): one page of the node's own paging (fetchSize = limit, resumed from the paging
 * state). The node already leaves expired cells out, as of its clock when it reads that page. With
 * a filter the node serves by ALLOW FILTERING, a page can hold fewer rows than asked, even none,
 * and still have a cursor; a full last page may be followed by an empty one.
 */
export async function cassandraPage<T>(p: CassandraPages, where: unknown, options: unknown): Promise<Page<T>> {
  const scope = { store: STORE, entity: p.mapping.entity.name, collection: p.mapping.table.name };
  const request = pageRequest(where, options, scope, (raw) => pageState(p, raw));
  const { columns, params } = p.filter(request.where);
  const query = p.ctx.statements(p.mapping).selectWhere(columns, { count: false });
  const result = await resumeFrom(
    request.position !== undefined,
    () => p.ctx.executor.page(query, params, p.place, 'findPage', request.limit, request.position),
    (error) => REFUSED_PAGE_STATE.test(causeMessages(error)),
    'a paging state',
    { entity: p.mapping.entity.name, store: STORE },
  );
  const items = result.rows.map((row) => rowToEntity<T>(p.mapping, row));
  return pageOf(items, result.pageState ?? undefined, request);
}

function pageState(p: CassandraPages, raw: unknown): string {
  if (typeof raw === 'string' && PAGE_STATE.test(raw)) return raw;
  throw invalidCursor('does not hold a Cassandra paging state', p.place);
}

function writetimeColumns(mapping: EntityMapping): readonly ColumnMapping[] {
  return mapping.regular.filter((c) => c.fieldType !== 'counter');
}

/** The key columns and each regular column's WRITETIME() of the matches (the filter as findPage's). */
function selection(p: CassandraPages, columns: readonly ColumnMapping[]): string {
  const keys = [...p.mapping.partition, ...p.mapping.clustering].map((c) => quoteId(c.column, 'column'));
  const times = writetimeColumns(p.mapping).map((c, i) => `WRITETIME(${quoteId(c.column, 'column')}) AS "wt_${i}"`);
  const counted = p.ctx.statements(p.mapping).selectWhere(columns, { count: true });
  // selectWhere decides the WHERE and ALLOW FILTERING; only its select list is replaced.
  return counted.replace(/^SELECT COUNT\(\*\) /, `SELECT ${[...keys, ...times].join(', ')} `);
}

/** The newest cell of a selected row, in microseconds; undefined when it has none to read (a key-only row). */
function newestWrite(mapping: EntityMapping, row: Row): bigint | undefined {
  let newest: bigint | undefined;
  for (const i of writetimeColumns(mapping).keys()) {
    const raw = row[`wt_${i}`] as unknown;
    if (raw === null || raw === undefined) continue;
    const micros = typeof raw === 'bigint' ? raw : BigInt(String(raw));
    if (newest === undefined || micros > newest) newest = micros;
  }
  return newest;
}

/**
 * deleteMany(): pages of the matches with their cells' WRITETIME, each row deleted `USING
 * TIMESTAMP` of its newest cell as selected. A tombstone only shadows cells written at or before
 * its timestamp, so a row rewritten after the selection (a later timestamp) survives: Cassandra's
 * own conflict rule does the re-check. Rows are then looked up at the write's consistency (so the
 * check reaches the replicas the delete did), and only those gone are counted. The count is of
 * rows gone after this call's delete, not of tombstones this call wrote: a row that expired or
 * that another caller deleted between the selection and the check counts too. A key-only table has no cell whose write time can be read: its rows are deleted plainly.
 */
export function cassandraDeleteMany(p: CassandraPages, request: DeleteManyRequest): Promise<number> {
  const { columns, params } = p.filter(request.where);
  const statements = p.ctx.statements(p.mapping);
  const pick = selection(p, columns);
  const keyColumns = [...p.mapping.partition, ...p.mapping.clustering];
  const plain = statements.deleteByKey();
  const timed = plain.replace(' WHERE ', ' USING TIMESTAMP ? WHERE ');
  const executor = p.ctx.executor;
  return runDeleteMany<Row, string>(
    {
      async select(after, size) {
        const result = await executor.page(pick, params, p.place, 'deleteMany (select)', size, after);
        return { picked: result.rows, next: result.pageState ?? undefined };
      },
      async remove(picked) {
        return sumBounded(picked, async (row) => {
          const key: Params = keyColumns.map((c) => row[c.column] as unknown);
          const newest = newestWrite(p.mapping, row);
          if (newest === undefined) await executor.execute(plain, key, p.place, 'deleteMany');
          else await executor.execute(timed, [newest.toString(), ...key], p.place, 'deleteMany');
          const left = await executor.checkWrite(statements.existsByKey(), key, p.place, 'deleteMany (check)');
          return left.rows.length === 0 ? 1 : 0;
        });
      },
    },
    request,
  );
}
