/**
 * What a relational store does with a TTL, in its own words. PostgreSQL,
 * MariaDB/MySQL and SQLite have no declarative row expiry (none of their manuals documents one), so expiry is either ignored or
 * emulated with an absolute `expires_at` stamped at write time — "stamped-at-write" semantics:
 * a TTL change never touches stored rows. "now + interval" is computed by the database
 * (each engine's manual): PostgreSQL now() is the start of the current transaction; MariaDB UTC_TIMESTAMP(3) is
 * the start of the statement; SQLite unixepoch('subsec') is stable within one statement step [U].
 */
import { INSTANT_SAY } from './write/expiry-instant';
import type { PerWriteRow } from '../../explain/entry';
import { perWriteRows as inKindOrder, type PerWriteHow } from '../../explain/per-write-rows';
import type { EntityModel } from '../../model/types';
import { perWriteDeclarationHint } from '../../runtime/write-ttl';
import { sqlFamily } from './families/by-dialect';
import { dialectLabel, type RelationalDialect } from './families/dialects';
import { EXPIRY_COLUMN } from './schema/names';
import type { RelationalTtlMode } from './options';

export const NO_NATIVE_TTL = 'no native TTL; the declaration is ignored — schedule deletes yourself';

/** How each dialect's users usually schedule a purge. */
export function schedulerHint(dialect: RelationalDialect): string {
  return sqlFamily(dialect).schedulerHint;
}

export function instantStorage(dialect: RelationalDialect): string {
  return `${EXPIRY_COLUMN} ${sqlFamily(dialect).instantStorage}`;
}

/**
 * Whether (and how) the store honours each per-write value for this entity in this mode. Without
 * a perWrite declaration only 'default' is accepted, as on every store (runtime/write-ttl.ts).
 */
export function perWriteRows(entity: EntityModel, mode: RelationalTtlMode, dialect: RelationalDialect): PerWriteRow[] {
  const now = sqlFamily(dialect).clockName;
  if (!entity.ttl?.perWrite) {
    const why = `per-write TTL is not declared: ${perWriteDeclarationHint(entity)}`;
    const byDefault: PerWriteHow = !entity.ttl
      ? { support: 'native', how: 'plain write; the row never expires (no TTL declared)' }
      : mode === 'emulate'
        ? { support: 'emulated', how: defaultStamp(entity, now) }
        : { support: 'ignored', how: IGNORED_DEFAULT };
    return inKindOrder({
      duration: { support: 'unsupported', how: why },
      default: byDefault,
      never: { support: 'unsupported', how: why },
      keep: { support: 'unsupported', how: why },
      extend: { support: 'unsupported', how: why },
      at: { support: 'unsupported', how: why },
    });
  }
  if (mode !== 'emulate') {
    const why = `ttl: '${mode}' keeps no expiry; choose ttl: 'emulate'`;
    return inKindOrder({
      duration: { support: 'unsupported', how: why },
      default: { support: 'ignored', how: IGNORED_DEFAULT },
      never: {
        support: 'ignored',
        how: `accepted as a plain write; nothing expires here with ttl: '${mode}', so the row never expires anyway`,
      },
      keep: {
        support: 'ignored',
        how: `accepted as a plain write; rows carry no expiry with ttl: '${mode}', so there is none to keep`,
      },
      extend: { support: 'unsupported', how: why },
      at: { support: 'unsupported', how: why },
    });
  }
  return inKindOrder({
    duration: { support: 'emulated', how: `${EXPIRY_COLUMN} = ${now} + n s` },
    default: { support: 'emulated', how: defaultStamp(entity, now) },
    never: { support: 'emulated', how: `${EXPIRY_COLUMN} = NULL` },
    keep: { support: 'emulated', how: `${EXPIRY_COLUMN} left as is (a new or expired row gets the default)` },
    extend: {
      support: 'emulated',
      how: `${EXPIRY_COLUMN} = max(${EXPIRY_COLUMN}, ${now} + n s); NULL (never) stays NULL`,
    },
    at: { support: 'emulated', how: INSTANT_SAY.atHow },
  });
}

const IGNORED_DEFAULT = 'plain write; nothing expires: the TTL declaration is ignored, delete rows yourself';

function defaultStamp(entity: EntityModel, now: string): string {
  const ttl = entity.ttl;
  if (!ttl || ttl.seconds === null) return `${EXPIRY_COLUMN} = NULL (no default TTL: never expires)`;
  return ttl.anchor?.source === 'explicit'
    ? `${EXPIRY_COLUMN} = ${ttl.anchor.member} + ${ttl.seconds}s`
    : `${EXPIRY_COLUMN} = ${now} + ${ttl.seconds}s`;
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
  const now = injectedClock ? 'now (the injected clock)' : `${sqlFamily(dialect).clockName} (the database clock)`;
  if (ttl.instantMember) {
    return (
      `each row expires at the instant in ${ttl.instantMember} (@ExpiresAt): every write stamps ${EXPIRY_COLUMN} = ` +
      `${ttl.instantMember}, exactly (NULL: never expires), and refuses an instant not in the future`
    );
  }
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
    case undefined:
      return `each row expires ${s} after its last write: every insert/upsert stamps ${EXPIRY_COLUMN} = ${now} + ${s}`;
  }
}

export function emulatedText(entity: EntityModel, dialect: RelationalDialect, injectedClock: boolean): string {
  return (
    `${entity.collection}: emulated TTL (${dialectLabel(dialect)} has no native TTL) — ` +
    `${emulatedClause(entity, dialect, injectedClock)}. Rows with ${EXPIRY_COLUMN} <= now are filtered from every ` +
    `lifespan read (get, getMany, find, exists, count, delete) at once and stay in the table until ` +
    `purgeExpired() deletes them; schedule it yourself (${schedulerHint(dialect)}). ` +
    (entity.ttl?.perWrite
      ? `Per-write TTL: n, 'default', 'never', 'keep', { extend } (emulated). `
      : `Per-write TTL: not declared, so a write takes the default only. `) +
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
