import type { NowMode, TableSql } from '../table/table-sql';
import type { StoredAnchorExpiry } from './expiry-resolver';
import type { WriteExpiry } from './write-expiry';
import type { SqlWriter, Statement } from '../table/statement';
import { anchorNotDue } from './write-sql';

/**
 * The statements of update() (UPDATE … WHERE version = ?), delete({ ifVersion }) and patch(): each
 * one statement whose WHERE holds the key, the condition and the live filter, so an expired row
 * (still stored until purged) matches none of them, and two racing writers cannot both match.
 */

/** How a conditional write sets expires_at: a new value, the later of two ('extend'), or not at all ('keep'). */
export type ExpiryChange = Pick<WriteExpiry, 'source' | 'rule'> | Pick<StoredAnchorExpiry, 'source' | 'rule'> | null;

/** Shape name of an expiry change, for the statement cache. */
export function expiryShape(change: ExpiryChange): string {
  return change === null || change.rule === 'keep' ? 'keep' : `${change.source}:${change.rule}`;
}

function newExpiry(t: TableSql, w: SqlWriter, mode: NowMode, change: NonNullable<ExpiryChange>, anchor: string | null) {
  switch (change.source) {
    case 'value':
      return w.param({ kind: 'expiry' });
    case 'nowPlus':
      return t.expiry.plusSeconds(t.now(w, mode), w.param({ kind: 'seconds' }));
    case 'anchorPlus':
      return t.expiry.plusSeconds(t.q(anchor as string), w.param({ kind: 'seconds' }));
  }
}

/** `, "expires_at" = …`, or nothing when the expiry stays (rule 'keep', or no expiry column). */
function expiryAssignment(
  t: TableSql,
  w: SqlWriter,
  mode: NowMode,
  change: ExpiryChange,
  anchor: string | null,
): string {
  if (!t.expiryColumn || change === null || change.rule === 'keep') return '';
  const e = t.q(t.expiryColumn);
  if (change.rule === 'replace') return `, ${e} = ${newExpiry(t, w, mode, change, anchor)}`;
  const a = newExpiry(t, w, mode, change, anchor);
  const b = newExpiry(t, w, mode, change, anchor);
  return `, ${e} = CASE WHEN ${e} IS NULL THEN NULL WHEN ${e} > ${a} THEN ${e} ELSE ${b} END`;
}

/**
 * update(): every member column but the key and @CreatedAt (a record's history stays), the new
 * version bound as a column value, where the stored version is the expected one (arg 0).
 */
export function updateVersioned(
  t: TableSql,
  mode: NowMode,
  versionColumn: string,
  change: ExpiryChange,
  anchor: string | null,
): Statement {
  const w = t.writer();
  const sets = t.dataColumns
    .map((c, i) => ({ c, i }))
    .filter(({ c }) => !t.keyColumns.includes(c.name) && c.name !== t.createdAtColumn)
    .map(({ c, i }) => `${t.q(c.name)} = ${w.param({ kind: 'col', index: i })}`);
  const expiry = expiryAssignment(t, w, mode, change, anchor);
  let where = liveAtExpected(t, w, mode, versionColumn);
  if (change?.source === 'anchorPlus') where += anchorNotDue(t, w, mode, anchor as string);
  return t.finish(w, `UPDATE ${t.table} SET ${sets.join(', ')}${expiry} WHERE ${where}`, false);
}

/** The live row of the key at the expected version (arg 0): an update that changed nothing tells a conflict from a due anchor by it. */
export function liveAtVersion(t: TableSql, mode: NowMode, versionColumn: string): Statement {
  const w = t.writer();
  const where = liveAtExpected(t, w, mode, versionColumn);
  return t.finish(w, `SELECT 1 FROM ${t.table} WHERE ${where} LIMIT 1`, true);
}

/** The live row of the key whose stored version is the expected one (arg 0). */
function liveAtExpected(t: TableSql, w: SqlWriter, mode: NowMode, versionColumn: string): string {
  return `${t.keyMatch(w)} AND ${storedVersion(t, versionColumn)} = ${w.param({ kind: 'arg', index: 0 })}${t.live(w, mode)}`;
}

/** The stored version; a row stored before @Version was declared has none (NULL): it counts as 0. */
function storedVersion(t: TableSql, versionColumn: string): string {
  return `COALESCE(${t.q(versionColumn)}, 0)`;
}

/** delete({ ifVersion }): the live row of that version (arg 0). */
export function deleteVersioned(t: TableSql, mode: NowMode, versionColumn: string): Statement {
  const w = t.writer();
  const where = liveAtExpected(t, w, mode, versionColumn);
  return t.finish(w, `DELETE FROM ${t.table} WHERE ${where}`, false);
}

/**
 * patch(): the changed columns (args in order), the version incremented by the statement itself
 * when the entity has one, the expiry as `change` says ('keep' by default: untouched).
 */
export function patchRow(
  t: TableSql,
  mode: NowMode,
  columns: readonly string[],
  versionColumn: string | null,
  change: ExpiryChange,
  anchor: string | null,
): Statement {
  const w = t.writer();
  const sets = columns.map((c, i) => `${t.q(c)} = ${w.param({ kind: 'arg', index: i })}`);
  if (versionColumn) sets.push(`${t.q(versionColumn)} = ${storedVersion(t, versionColumn)} + 1`);
  const expiry = expiryAssignment(t, w, mode, change, anchor);
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `UPDATE ${t.table} SET ${sets.join(', ')}${expiry} WHERE ${where}`, false);
}
