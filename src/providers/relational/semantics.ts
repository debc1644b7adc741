/**
 * What a relational store does with a TTL, in its own words. Facts from
 * shared/reference/store-ttl.md §4: PostgreSQL, MariaDB/MySQL and SQLite have no declarative row
 * expiry (§4.1, an absence claim the reference marks unverified), so expiry is either ignored or
 * emulated with an absolute `expires_at` stamped at write time — "stamped-at-write" semantics
 * (§0): a TTL change never touches stored rows. "now + interval" is computed by the database
 * (§4.2): PostgreSQL now() is the start of the current transaction; MariaDB UTC_TIMESTAMP(3) is
 * the start of the statement; SQLite unixepoch('subsec') is stable within one statement step [U].
 */
import type { PerWriteRow } from '../../explain/entry';
import type { WriteTtlKind } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import { clockName, dialectLabel, EXPIRY_COLUMN, familyOf, type RelationalDialect } from './dialect';
import type { RelationalTtlMode } from './options';

export const NO_NATIVE_TTL = 'no native TTL; the declaration is ignored — schedule deletes yourself';

/** How each dialect's users usually schedule a purge (§4.1). */
export function schedulerHint(dialect: RelationalDialect): string {
  switch (familyOf(dialect)) {
    case 'postgres':
      return 'a cron job, a timer in your service or pg_cron';
    case 'mysql':
      return 'a cron job, a timer in your service or the Event Scheduler';
    default:
      return 'a cron job or a timer in your service; SQLite has no scheduler';
  }
}

export function instantStorage(dialect: RelationalDialect): string {
  switch (familyOf(dialect)) {
    case 'sqlite':
      return `${EXPIRY_COLUMN} INTEGER holds epoch milliseconds (UTC)`;
    case 'postgres':
      return `${EXPIRY_COLUMN} timestamptz (an absolute instant)`;
    default:
      return `${EXPIRY_COLUMN} DATETIME(3) holds UTC, computed with UTC_TIMESTAMP(3)`;
  }
}

/** Whether (and how) the store honours each per-write value for this entity in this mode. */
export function perWriteRows(entity: EntityModel, mode: RelationalTtlMode, dialect: RelationalDialect): PerWriteRow[] {
  const now = clockName(dialect);
  if (!entity.ttl) {
    const hint = `declare @TimeToLive({ perWrite: true }) on ${entity.name} to get an ${EXPIRY_COLUMN} column`;
    return rows({
      duration: ['unsupported', `no TTL declared: ${hint}`],
      default: ['native', 'plain write; the row never expires'],
      never: ['unsupported', `no TTL declared: ${hint}`],
      keep: ['unsupported', `no TTL declared: ${hint}`],
      extend: ['unsupported', `no TTL declared: ${hint}`],
    });
  }
  if (mode !== 'emulate') {
    const why = `ttl: '${mode}' keeps no expiry; choose ttl: 'emulate'`;
    return rows({
      duration: ['unsupported', why],
      default: ['native', 'plain write; nothing expires (the declaration is ignored)'],
      never: ['native', 'rows never expire here anyway'],
      keep: ['native', 'nothing to keep: rows carry no expiry'],
      extend: ['unsupported', why],
    });
  }
  const byDefault =
    entity.ttl.seconds === null
      ? `${EXPIRY_COLUMN} = NULL (no default TTL: never expires)`
      : entity.ttl.anchor?.source === 'explicit'
        ? `${EXPIRY_COLUMN} = ${entity.ttl.anchor.member} + ${entity.ttl.seconds}s`
        : `${EXPIRY_COLUMN} = ${now} + ${entity.ttl.seconds}s`;
  return rows({
    duration: ['emulated', `${EXPIRY_COLUMN} = ${now} + n s`],
    default: ['emulated', byDefault],
    never: ['emulated', `${EXPIRY_COLUMN} = NULL`],
    keep: ['emulated', `${EXPIRY_COLUMN} left as is (a new or expired row gets the default)`],
    extend: ['emulated', `${EXPIRY_COLUMN} = max(${EXPIRY_COLUMN}, ${now} + n s); NULL (never) stays NULL`],
  });
}

type RowSpec = [PerWriteRow['support'], string];

function rows(spec: Record<WriteTtlKind, RowSpec>): PerWriteRow[] {
  return (['duration', 'default', 'never', 'keep', 'extend'] as const).map((value) => ({
    value,
    support: spec[value][0],
    how: spec[value][1],
  }));
}

/** A limit of TTLs anchored on a date member: what a write of an anchor already too old does. */
export function anchorLimit(member: string, seconds: number): string {
  return (
    `a write whose ${member} + ${seconds}s is not after now is refused (RELATIONAL_TTL_ALREADY_EXPIRED; judged by ` +
    `the client clock, or the clock option), as is ${member} = new Date(0) (VALUE_INVALID): no row is stored expired`
  );
}

/** "each row expires 3600s after its last write: ..." — what the expiry counts from, in words. */
export function emulatedClause(entity: EntityModel, dialect: RelationalDialect, injectedClock: boolean): string {
  const ttl = entity.ttl;
  if (!ttl) return '';
  const now = injectedClock ? 'now (the injected clock)' : `${clockName(dialect)} (the database clock)`;
  if (ttl.seconds === null) {
    return `rows never expire unless a write gives a TTL: that write stamps ${EXPIRY_COLUMN} = ${now} + n s`;
  }
  const s = `${ttl.seconds}s`;
  switch (ttl.anchor?.source) {
    case 'explicit':
      return (
        `each row expires ${s} after ${ttl.anchor.member}: every write stamps ${EXPIRY_COLUMN} = ` +
        `${ttl.anchor.member} + ${s} from the value written, and refuses a value that makes the row expired on ` +
        `arrival (or the unset placeholder new Date(0)); a write with its own TTL counts from ${now} instead`
      );
    case 'updatedAt':
      return (
        `sliding expiry: each row expires ${s} after its last write — every insert/upsert (which also sets ` +
        `${ttl.anchor.member}) re-stamps ${EXPIRY_COLUMN} = ${now} + ${s}`
      );
    case 'createdAt':
      return (
        `each row expires ${s} after its last write: every insert/upsert stamps ${EXPIRY_COLUMN} = ${now} + ${s}; ` +
        `it does not count from ${ttl.anchor.member}, so an upsert renews the row`
      );
    default:
      return `each row expires ${s} after its last write: every insert/upsert stamps ${EXPIRY_COLUMN} = ${now} + ${s}`;
  }
}

export function emulatedText(entity: EntityModel, dialect: RelationalDialect, injectedClock: boolean): string {
  return (
    `${entity.collection}: emulated TTL (${dialectLabel(dialect)} has no native TTL) — ` +
    `${emulatedClause(entity, dialect, injectedClock)}. Rows with ${EXPIRY_COLUMN} <= now are filtered from every ` +
    `lifespan read (get, getMany, find, exists, count, delete) at once and stay in the table until ` +
    `purgeExpired() deletes them; schedule it yourself (${schedulerHint(dialect)}). ` +
    `Per-write TTL: n, 'default', 'never', 'keep', { extend } (emulated). ` +
    `Changing the TTL affects new writes only; stored rows keep their ${EXPIRY_COLUMN}.`
  );
}

export function ignoredText(entity: EntityModel, dialect: RelationalDialect): string {
  const declared = entity.ttl?.seconds ? `TTL ${entity.ttl.seconds}s` : 'per-write TTL';
  return (
    `${entity.collection}: ${NO_NATIVE_TTL}, unless ttl: 'emulate' is chosen. The ${declared} has no effect on ` +
    `${dialectLabel(dialect)}: rows stay visible until you delete them (${schedulerHint(dialect)}).`
  );
}

export function noTtlText(entity: EntityModel): string {
  return `${entity.collection}: no TTL declared; rows are kept until deleted.`;
}
