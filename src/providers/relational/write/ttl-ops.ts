import { LifespanError } from '../../../errors';
import { formatDuration } from '../../../model/duration';
import type { PerWriteTtl } from '../../../model/per-write-ttl';
import { refuseSetTtlOnMember } from '../../../runtime/write-instant';
import type { EntityTable } from '../table/entity-table';
import type { Executor } from '../drivers/executor';
import { ALREADY_EXPIRED, resolveTtl, storedRowExpiry, type StoredAnchorExpiry } from './expiry-resolver';
import type { WriteExpiry } from './write-expiry';
import { RELATIONAL_STORE } from '../options';
import { existsByKey, ttlByKey } from '../read/read-sql';
import { setExpiry, type SetTtlForm } from './write-sql';
import { bind, type BindContext } from '../table/statement';

/** Remaining whole seconds (rounded up, at least 1 for a live row), null: never, undefined: absent. */
export async function runTtl(t: EntityTable, executor: Executor, key: unknown[]): Promise<number | null | undefined> {
  const ex = t.expiryColumn;
  if (!ex) return (await exists(t, executor, key)) ? null : undefined;
  const statement = t.statement('ttl', () => ttlByKey(t, t.nowMode, ex));
  const rows = await executor.rows(statement, bind(statement, { key, now: t.nowParam() }));
  const row = rows[0];
  if (!row) return undefined;
  const remaining = row[0];
  if (remaining === null || remaining === undefined) return null;
  return Math.max(1, Math.ceil(Number(remaining) / 1000));
}

async function exists(t: EntityTable, executor: Executor, key: unknown[]): Promise<boolean> {
  const statement = t.statement('exists', () => existsByKey(t, t.nowMode));
  return (await executor.rows(statement, bind(statement, { key, now: t.nowParam() }))).length > 0;
}

/**
 * Changes the expiry of a live row with one UPDATE of expires_at (the row is not rewritten, so
 * @UpdatedAt does not move). False, and nothing written, when the key is missing or expired.
 */
export async function runSetTtl(
  t: EntityTable,
  executor: Executor,
  key: unknown[],
  requested: PerWriteTtl,
): Promise<boolean> {
  refuseSetTtlOnMember(t.entity, RELATIONAL_STORE);
  const ttl = resolveTtl(t, requested);
  const ex = t.expiryColumn;
  if (!ex) return exists(t, executor, key);
  const expiry = storedRowExpiry(t, ttl);
  // Only a live row changes, and 'keep' leaves a live row's expiry as it is: nothing to write.
  if (expiry.rule === 'keep') return exists(t, executor, key);
  const form = setTtlForm(expiry);
  const anchor = expiry.source === 'anchorPlus' ? anchorColumn(t, expiry.member) : null;
  const value = expiry.source === 'anchorPlus' ? undefined : expiry.value;
  const ctx: BindContext = { key, now: t.nowParam(), seconds: expiry.seconds, expiry: value };
  const statement = t.statement(`set-ttl:${form}`, () => setExpiry(t, t.nowMode, form, ex, anchor));
  if ((await executor.run(statement, bind(statement, ctx))) > 0) return true;
  // The anchored form changes nothing when the stored anchor + TTL is already due: a live row then
  // is refused loudly rather than made to vanish (or reported as missing).
  if (expiry.source === 'anchorPlus' && (await exists(t, executor, key))) {
    throw anchoredExpiryDue(t, expiry.member, expiry.seconds);
  }
  return false;
}

/** The UPDATE form that stamps a resolved expiry (an extend keeps a later stored expiry). */
function setTtlForm(expiry: WriteExpiry | StoredAnchorExpiry): SetTtlForm {
  const extend = expiry.rule === 'extend';
  switch (expiry.source) {
    case 'value':
      return extend ? 'extendValue' : 'value';
    case 'nowPlus':
      return extend ? 'extendNowPlus' : 'nowPlus';
    case 'anchorPlus':
      return 'anchorPlus';
  }
}

/** `call` counted from the stored anchor, and anchor + TTL is already due (setTtl, update). */
export function anchoredExpiryDue(
  t: EntityTable,
  member: string,
  seconds: number,
  call = "setTtl('default')",
): LifespanError {
  const ttl = formatDuration(seconds);
  return new LifespanError(
    ALREADY_EXPIRED,
    `${call} counts from the stored ${member}, and ${member} + ${ttl} is not after now: the row would expire at once; nothing was changed`,
    {
      entity: t.entity.name,
      member,
      store: RELATIONAL_STORE,
      hint: `write a more recent ${member} with upsert(), or pass a duration (e.g. setTtl(key, '${ttl}') counts from now)`,
    },
  );
}

/** The stored column of the member an anchored expiry counts from. */
export function anchorColumn(t: EntityTable, member: string): string {
  return t.dataColumns[t.members.indexOf(member)]?.name ?? member;
}
