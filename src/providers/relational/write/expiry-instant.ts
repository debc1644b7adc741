import { TtlError } from '../../../errors';
import type { ExplainEntry } from '../../../explain/entry';
import { expiryMemberOf, withExpiryMember } from '../../../explain/expiry-member';
import type { EntityModel } from '../../../model/types';
import { decoderFor } from '../codec';
import type { Executor } from '../drivers/executor';
import type { EntityTable } from '../table/entity-table';
import type { NowMode, TableSql } from '../table/table-sql';
import { bind, type Statement } from '../table/statement';

/** What explain() says about expiry instants on an emulating relational store. */
export const INSTANT_SAY = {
  atHow:
    'expires_at = the instant itself, exact (to the millisecond); an instant not after the clock that judges ' +
    "writes (the injected clock, else this process's) is refused and nothing is written; instants after " +
    '9999-12-31 are refused on every dialect (MariaDB/MySQL DATETIME ends there)',
  readBack: 'expiresAt(key): the stored expires_at of the live row, exact to the millisecond',
} as const;

/** The latest instant every dialect's expiry column holds (MariaDB / MySQL DATETIME ends with year 9999). */
const LATEST_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

export function checkInstantRange(at: Date, place: { readonly entity: EntityModel; readonly store: string }): void {
  if (at.getTime() <= LATEST_INSTANT_MS) return;
  throw new TtlError(
    'TTL_AT_TOO_LATE',
    at,
    `the expiry instant ${at.toISOString()} is after 9999-12-31, the last instant the expires_at column holds on ` +
      'every dialect; nothing was written',
    { entity: place.entity.name, store: place.store, hint: "pass an earlier instant, or 'never'" },
  );
}

/** SELECT expires_at of the live row with this key. */
export function expiryByKey(t: TableSql, mode: NowMode, expiryColumn: string): Statement {
  const w = t.writer();
  const where = t.keyMatch(w) + t.live(w, mode);
  return t.finish(w, `SELECT ${t.q(expiryColumn)} FROM ${t.table} WHERE ${where}`, true);
}

/** The expires_at decoder of each table's dialect, made once. */
const decoders = new WeakMap<EntityTable, (raw: unknown) => unknown>();

/**
 * The stored expires_at of the live row: null when it never expires (or the table keeps no expiry,
 * ttl: 'ignore'), undefined when there is no live row. Synchronous on SQLite, as get() is.
 */
export function readExpiryInstant(
  t: EntityTable,
  executor: Executor,
  key: unknown[],
  rowExists: () => Promise<boolean>,
): Promise<Date | null | undefined> {
  const column = t.expiryColumn;
  if (!column) return rowExists().then((found) => (found ? null : undefined));
  try {
    const statement = t.statement('expires-at', () => expiryByKey(t, t.nowMode, column));
    const params = statement.keyOnly ? key : bind(statement, { key, now: t.nowParam() });
    let decode = decoders.get(t);
    if (!decode) decoders.set(t, (decode = decoderFor(t.dialect, 'date')));
    const instant = (row: unknown[] | undefined) => (row ? (decode(row[0]) as Date | null) : undefined);
    const sync = executor.trySync();
    if (sync) return Promise.resolve(instant(sync.rowSync(statement, params)));
    return executor.rows(statement, params).then((rows) => instant(rows[0]));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The explain entry of an @ExpiresAt entity on emulation: expires_at = the member, exactly. */
export function withMemberExpiry(entity: EntityModel, entry: ExplainEntry): ExplainEntry {
  const member = expiryMemberOf(entity);
  if (!member) return entry;
  return withExpiryMember(entry, member, {
    keeps:
      `every write stamps expires_at = ${member}, exactly (NULL: never); due rows are hidden from every lifespan ` +
      'read at once and deleted by purgeExpired()',
    plainWrite: `expires_at = ${member}, exact`,
  });
}
