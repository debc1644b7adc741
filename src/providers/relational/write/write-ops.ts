import type { PerWriteTtl } from '../../../model/per-write-ttl';
import { keyValues } from '../../../runtime/entity-values';
import type { KeyInput } from '../../contract';
import type { Encoder } from '../codec';
import type { EntityTable } from '../table/entity-table';
import type { BatchOp } from '../drivers/executor';
import { resolveTtl, writeExpiry } from './expiry-resolver';
import { RELATIONAL_STORE } from '../options';
import { deleteByKey } from '../read/read-sql';
import { deleteExpiredByKey, insertRow, upsertRow } from './write-sql';
import type { ConflictRule, ExpirySource, WriteExpiry } from './write-expiry';
import { bind, bindRow, type BindContext, type Statement } from '../table/statement';

/** A row ready to bind: member values (the instance, timestamps stamped) and encoded column values. */
export interface EncodedRow {
  readonly values: Record<string, unknown>;
  /** Fresh per write and owned by it: bindRow may append to it and bind it as the parameters. */
  readonly cols: unknown[];
}

/**
 * Stamps @CreatedAt/@UpdatedAt with the client clock (documented: expiry instants use the
 * database clock, timestamps the client's) straight onto the instance, then encodes each column
 * from it: no copy of the member values per write (this is the insert hot path). @CreatedAt is set
 * unless the instance holds a real date (not the `new Date(0)` placeholder), for upserts too; an
 * upsert over a live row keeps the stored createdAt in SQL anyway. Same rule as stampTimestamps.
 */
export function encodeRow(t: EntityTable, instance: object): EncodedRow {
  const { entity } = t;
  const values = instance as Record<string, unknown>;
  // One Date, and only when a member takes it (a createdAt the caller set needs none).
  let now: Date | undefined;
  if (entity.createdAt) {
    const current = values[entity.createdAt];
    if (!(current instanceof Date) || current.getTime() === 0) values[entity.createdAt] = now = new Date();
  }
  if (entity.updatedAt) values[entity.updatedAt] = now ?? new Date();
  return { values, cols: t.encodeCols(values) };
}

/** A key argument as bound values; a missing key is KEY_INCOMPLETE before any value is encoded. */
export function encodeKey<T>(t: EntityTable, key: KeyInput<T>): unknown[] {
  const single = key !== null && key !== undefined && (typeof key !== 'object' || key instanceof Date);
  if (t.keyMembers.length === 1 && single) {
    // a single-member key given as its value: no key object to build
    return [(t.keyEncoders[0] as Encoder)(key)];
  }
  return encodeKeyValues(t, keyValues(t.entity, key, RELATIONAL_STORE));
}

/** Key member values (every member present) as bound values. */
export function encodeKeyValues(t: EntityTable, values: Record<string, unknown>): unknown[] {
  return t.keyMembers.map((m, i) => (t.keyEncoders[i] as Encoder)(values[m]));
}

function context(t: EntityTable, row: EncodedRow, expiry: WriteExpiry | null): BindContext {
  return { cols: row.cols, now: t.nowParam(), seconds: expiry?.seconds, expiry: expiry?.value };
}

/** Constant shape names: statement lookups hash no freshly built string. */
const INSERT_SHAPE: Record<ExpirySource, string> = { nowPlus: 'insert:nowPlus', value: 'insert:value' };
/** Module-level builders: the insert path allocates no closure per write. */
const INSERT_BUILD: Record<ExpirySource, (t: EntityTable) => Statement> = {
  nowPlus: (t) => insertRow(t, t.nowMode, 'nowPlus'),
  value: (t) => insertRow(t, t.nowMode, 'value'),
};
const buildDeleteExpired = (t: EntityTable) => deleteExpiredByKey(t, t.nowMode, t.expiryColumn as string);
const UPSERT_SHAPE: Record<ExpirySource, Record<ConflictRule, string>> = {
  nowPlus: { replace: 'upsert:nowPlus:replace', keep: 'upsert:nowPlus:keep', extend: 'upsert:nowPlus:extend' },
  value: { replace: 'upsert:value:replace', keep: 'upsert:value:keep', extend: 'upsert:value:extend' },
};

/** An insert fails on a live row with the same key; an expired row with that key is replaced. */
export function insertOps(t: EntityTable, row: EncodedRow, requested: PerWriteTtl | undefined): BatchOp[] {
  const ttl = resolveTtl(t, requested);
  const expiry = t.expiryColumn ? writeExpiry(t, ttl, row.values) : null;
  const source = expiry?.source ?? 'value';
  const statement = t.statement(INSERT_SHAPE[source], INSERT_BUILD[source]);
  const ctx = context(t, row, expiry);
  // bindRow only appends past the row's columns, so the delete below still reads them by index.
  const params = bindRow(statement, row.cols, ctx);
  if (t.family.conditionalInsert) return [{ statement, params, check: t.refuseDuplicate }];
  const insert: BatchOp = { statement, params };
  if (!t.expiryColumn) return [insert];
  const clear = t.statement('delete-expired', buildDeleteExpired);
  return [{ statement: clear, params: bind(clear, ctx) }, insert];
}

export function upsertOps(t: EntityTable, row: EncodedRow, requested: PerWriteTtl | undefined): BatchOp[] {
  const ttl = resolveTtl(t, requested);
  const expiry = t.expiryColumn ? writeExpiry(t, ttl, row.values) : null;
  const source = expiry?.source ?? 'value';
  const rule = expiry?.rule ?? 'replace';
  const statement = t.statement(UPSERT_SHAPE[source][rule], () => upsertRow(t, t.nowMode, source, rule));
  return [{ statement, params: bindRow(statement, row.cols, context(t, row, expiry)) }];
}

/** Deletes the row when it is live (an expired row is already absent; purge removes it). */
export function deleteOp(t: EntityTable, key: unknown[]): BatchOp {
  const statement = t.statement('delete', () => deleteByKey(t, t.nowMode));
  return { statement, params: bind(statement, { key, now: t.nowParam() }) };
}
