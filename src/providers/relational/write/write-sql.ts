import type { NowMode, TableSql } from '../table/table-sql';
import type { ConflictRule, ExpirySource } from './write-expiry';
import type { SqlWriter, Statement } from '../table/statement';

function expiryValue(t: TableSql, w: SqlWriter, mode: NowMode, source: ExpirySource): string {
  return source === 'value'
    ? w.param({ kind: 'expiry' })
    : t.expiry.plusSeconds(t.now(w, mode), w.param({ kind: 'seconds' }));
}

function insertHead(t: TableSql, w: SqlWriter, mode: NowMode, source: ExpirySource): string {
  const names = t.dataColumns.map((c) => t.q(c.name));
  const values = t.dataColumns.map((_, i) => w.param({ kind: 'col', index: i }));
  if (t.expiryColumn) {
    names.push(t.q(t.expiryColumn));
    values.push(expiryValue(t, w, mode, source));
  }
  return `INSERT INTO ${t.table} (${names.join(', ')}) VALUES (${values.join(', ')})`;
}

/** The new row's value of a column inside the conflict clause. */
function incoming(t: TableSql, column: string): string {
  return t.family.incoming(t.q(column));
}

/** The stored row's value of a column inside the conflict clause. */
function stored(t: TableSql, column: string): string {
  return t.family.stored(t.table, t.q(column));
}

/**
 * Insert that fails (0 rows changed) on a live row with the same key but replaces an expired
 * one: an expired row is absent to every read, so it must not block an insert.
 * A family without a conditional conflict clause (MariaDB/MySQL ON DUPLICATE KEY): there,
 * `deleteExpiredByKey` runs first and a duplicate key error means the key is live.
 */
export function insertRow(t: TableSql, mode: NowMode, source: ExpirySource): Statement {
  const w = t.writer();
  const head = insertHead(t, w, mode, source);
  if (!t.family.conditionalInsert) return t.finish(w, head, false);
  // The conflict target is the key: a unique index on other columns must raise, not read as "key taken".
  const target = `ON CONFLICT (${t.keyColumns.map((k) => t.q(k)).join(', ')})`;
  if (!t.expiryColumn) return t.finish(w, `${head} ${target} DO NOTHING`, false);
  const sets = [...t.dataColumns.map((c) => c.name).filter((n) => !t.keyColumns.includes(n)), t.expiryColumn].map(
    (n) => `${t.q(n)} = ${incoming(t, n)}`,
  );
  const expired = `${stored(t, t.expiryColumn)} <= ${t.now(w, mode)}`;
  const conflict = ` ${target} DO UPDATE SET ${sets.join(', ')} WHERE ${expired}`;
  return t.finish(w, head + conflict, false);
}

/** Without a conditional insert (MariaDB/MySQL): removes an expired row holding the key about to be inserted. */
export function deleteExpiredByKey(t: TableSql, mode: NowMode, expiryColumn: string): Statement {
  const w = t.writer();
  const where = `${t.keyMatch(w, 'col')} AND ${t.q(expiryColumn)} <= ${t.now(w, mode)}`;
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${where}`, false);
}

/**
 * Insert or overwrite. Overwriting a live row keeps its @CreatedAt; overwriting an expired row is
 * a fresh insert. `rule` decides the expiry of an overwritten live row.
 */
export function upsertRow(t: TableSql, mode: NowMode, source: ExpirySource, rule: ConflictRule): Statement {
  const w = t.writer();
  const head = insertHead(t, w, mode, source);
  const ex = t.expiryColumn;
  const sets: string[] = [];
  // MariaDB/MySQL evaluate ON DUPLICATE KEY assignments left to right, each seeing the ones before:
  // the assignments that read the stored expiry come first.
  if (ex && t.createdAtColumn) {
    const expired = `${stored(t, ex)} <= ${t.now(w, mode)}`;
    const c = t.createdAtColumn;
    sets.push(`${t.q(c)} = CASE WHEN ${expired} THEN ${incoming(t, c)} ELSE ${stored(t, c)} END`);
  }
  if (ex) sets.push(`${t.q(ex)} = ${conflictExpiry(t, w, mode, rule, ex)}`);
  for (const c of t.dataColumns) {
    if (t.keyColumns.includes(c.name) || c.name === t.createdAtColumn) continue;
    sets.push(`${t.q(c.name)} = ${incoming(t, c.name)}`);
  }
  const conflict = t.family.onConflictUpdate(
    t.keyColumns.map((k) => t.q(k)),
    sets,
  );
  return t.finish(w, `${head} ${conflict}`, false);
}

function conflictExpiry(t: TableSql, w: SqlWriter, mode: NowMode, rule: ConflictRule, ex: string): string {
  const old = stored(t, ex);
  const fresh = incoming(t, ex);
  switch (rule) {
    case 'replace':
      return fresh;
    case 'keep':
      return `CASE WHEN ${old} <= ${t.now(w, mode)} THEN ${fresh} ELSE ${old} END`;
    case 'extend':
      return `CASE WHEN ${old} IS NULL THEN NULL WHEN ${old} > ${fresh} THEN ${old} ELSE ${fresh} END`;
  }
}

/** How setTtl computes the new expiry. */
export type SetTtlForm = 'value' | 'nowPlus' | 'anchorPlus' | 'extendNowPlus' | 'extendValue';

/** Changes the expiry of a live row without rewriting it. */
export function setExpiry(t: TableSql, mode: NowMode, form: SetTtlForm, ex: string, anchor: string | null): Statement {
  const w = t.writer();
  const e = t.q(ex);
  let value: string;
  switch (form) {
    case 'value':
      value = w.param({ kind: 'expiry' });
      break;
    case 'nowPlus':
      value = t.expiry.plusSeconds(t.now(w, mode), w.param({ kind: 'seconds' }));
      break;
    case 'anchorPlus':
      value = t.expiry.plusSeconds(t.q(anchor as string), w.param({ kind: 'seconds' }));
      break;
    case 'extendValue':
    case 'extendNowPlus': {
      const next = () =>
        form === 'extendValue'
          ? w.param({ kind: 'expiry' })
          : t.expiry.plusSeconds(t.now(w, mode), w.param({ kind: 'seconds' }));
      const a = next();
      const b = next();
      value = `CASE WHEN ${e} IS NULL THEN NULL WHEN ${e} > ${a} THEN ${e} ELSE ${b} END`;
      break;
    }
  }
  let where = t.keyMatch(w) + t.live(w, mode);
  if (form === 'anchorPlus') where += anchorNotDue(t, w, mode, anchor as string);
  return t.finish(w, `UPDATE ${t.table} SET ${e} = ${value} WHERE ${where}`, false);
}

/** Never stamps an expiry that is already due (as setTtl): 0 rows changed, and the caller says why. */
export function anchorNotDue(t: TableSql, w: SqlWriter, mode: NowMode, anchor: string): string {
  const a = t.q(anchor);
  return ` AND (${a} IS NULL OR ${t.expiry.plusSeconds(a, w.param({ kind: 'seconds' }))} > ${t.now(w, mode)})`;
}
