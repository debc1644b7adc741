import { invalidCursor } from '../../../runtime/cursor';
import { runDeleteMany, type DeleteManyRequest } from '../../../runtime/delete-many';
import { pageOf, pageRequest } from '../../../runtime/pages';
import type { Page } from '../../contract';
import type { Executor } from '../drivers/executor';
import type { EntityTable } from '../table/entity-table';
import { RELATIONAL_STORE } from '../options';
import { filterShape, type Filter } from './read-sql';
import { deleteSelect, deleteSelected, pageSelect, selectedWidth } from './page-sql';
import { bind } from '../table/statement';

/** The checked filter of a call, as the repository builds it: the filters and their bound values. */
export interface BuiltFilter {
  readonly filters: Filter[];
  readonly args: unknown[];
}

/** Rows one deleteMany DELETE names, in a few fixed shapes padded to size (as getMany's keys). */
const DELETE_BUCKETS = [1, 16, 128] as const;

/** Bound values one DELETE may carry: under SQLite's default limit (32,766), the lowest of the three families. */
const MAX_BOUND_VALUES = 30_000;

/** The row counts of one table's DELETE shapes: a wide table names fewer rows per statement. */
function deleteBuckets(t: EntityTable, filterArgs: number): number[] {
  const most = Math.max(1, Math.floor((MAX_BOUND_VALUES - filterArgs) / selectedWidth(t)));
  const buckets = DELETE_BUCKETS.filter((b) => b < most);
  return [...buckets, Math.min(most, DELETE_BUCKETS[DELETE_BUCKETS.length - 1] as number)];
}

/**
 * findPage() on a relational table: a keyset page on the primary key, one more row than asked
 * read to know whether another page follows (so a cursor always means more rows, at that moment).
 * The cursor holds the last key's member values.
 */
export async function relationalPage<T>(
  t: EntityTable,
  executor: Executor,
  where: unknown,
  options: unknown,
  build: (where: Partial<T> | undefined) => BuiltFilter,
): Promise<Page<T>> {
  const scope = { store: RELATIONAL_STORE, entity: t.entity.name, collection: t.spec.table };
  const request = pageRequest(where, options, scope, (raw) => encodedKeyOf(t, raw));
  const { filters, args } = build(request.where as Partial<T>);
  const after = request.position !== undefined;
  const shape = `page:${filterShape(filters)}:${after ? 'A' : ''}`;
  const statement = t.statement(shape, () => pageSelect(t, t.nowMode, filters, after));
  const bound = [...args, ...(request.position ?? []), request.limit + 1];
  const rows = await executor.rows(statement, bind(statement, { args: bound, now: t.nowParam() }));
  const items = rows.slice(0, request.limit).map((row) => t.instanceOfRow(row) as T);
  const last = items[items.length - 1] as Record<string, unknown> | undefined;
  const next = rows.length > request.limit && last ? t.keyMembers.map((m) => last[m]) : undefined;
  return pageOf(items, next, request);
}

/** A cursor's position: the key member values of the last row, bound as the key columns are. */
function encodedKeyOf(t: EntityTable, raw: unknown): unknown[] {
  const place = { entity: t.entity.name, store: RELATIONAL_STORE };
  if (!Array.isArray(raw) || raw.length !== t.keyMembers.length) {
    throw invalidCursor(`does not hold a key of ${t.entity.name}`, place);
  }
  try {
    return raw.map((value, i) => (t.keyEncoders[i] as (v: unknown) => unknown)(value));
  } catch {
    throw invalidCursor(`does not hold a key of ${t.entity.name}`, place);
  }
}

/**
 * deleteMany() in batches: each selects up to batchSize live matches after the last key (their
 * keys and every other column), then deletes those that still match, are live and hold every
 * value they were selected with: a row rewritten after its batch selected it is spared.
 */
export function relationalDeleteMany(
  t: EntityTable,
  executor: Executor,
  request: DeleteManyRequest,
  built: BuiltFilter,
): Promise<number> {
  const { filters, args } = built;
  const shape = filterShape(filters);
  return runDeleteMany<unknown[], unknown[]>(
    {
      async select(after, size) {
        const key = `delete-pick:${shape}:${after ? 'A' : ''}`;
        const statement = t.statement(key, () => deleteSelect(t, t.nowMode, filters, after !== undefined));
        const bound = [...args, ...(after ?? []), size];
        const rows = await executor.rows(statement, bind(statement, { args: bound, now: t.nowParam() }));
        const last = rows[rows.length - 1];
        const next = rows.length === size && last ? last.slice(0, t.keyColumns.length) : undefined;
        return { picked: rows, next };
      },
      async remove(picked) {
        let deleted = 0;
        const buckets = deleteBuckets(t, args.length);
        const top = buckets[buckets.length - 1] as number;
        for (let start = 0; start < picked.length; start += top) {
          const chunk = picked.slice(start, start + top);
          const size = buckets.find((b) => b >= chunk.length) ?? top;
          const statement = t.statement(`delete-picked:${shape}:${size}`, () =>
            deleteSelected(t, t.nowMode, filters, size),
          );
          const lastRow = chunk[chunk.length - 1] as unknown[];
          const rowArgs: unknown[] = [];
          for (let i = 0; i < size; i++) rowArgs.push(...(chunk[i] ?? lastRow));
          deleted += await executor.run(statement, bind(statement, { args: [...args, ...rowArgs], now: t.nowParam() }));
        }
        return deleted;
      },
    },
    request,
  );
}
