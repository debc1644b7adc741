import type { ResolvedWriteTtl } from '../../model/per-write-ttl';
import { unsupported, writeTtlFor } from '../../runtime/write-ttl';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import type { EntityTable } from './entity-table';
import { RELATIONAL_STORE } from './options';
import type { ConflictRule, ExpirySource } from './sql-write';

/** How one write sets expires_at: the value for a new row, and the rule for a live row it overwrites. */
export interface WriteExpiry {
  readonly source: ExpirySource;
  readonly rule: ConflictRule;
  /** For source 'nowPlus': whole seconds added to the database clock. */
  readonly seconds?: number;
  /** For source 'value': the encoded instant, or null (never expires). */
  readonly value?: unknown;
}

/**
 * Resolves a per-write TTL for an entity: checks the declaration (no TTL declared: only the
 * default), and in 'ignore' mode refuses what would need an expiry the table does not keep.
 */
export function resolveTtl(t: EntityTable, requested: PerWriteTtl | undefined): ResolvedWriteTtl {
  if (requested === undefined) return DEFAULT_TTL;
  const ttl = writeTtlFor(t.entity, requested, RELATIONAL_STORE, t.entity.ttl === null);
  if (!t.expiryColumn && (ttl.kind === 'duration' || ttl.kind === 'extend')) {
    throw unsupported(
      t.entity,
      RELATIONAL_STORE,
      ttl,
      `the store runs with ttl: '${t.mode}', so rows keep no expiry`,
      "create the RelationalStore with ttl: 'emulate' to give rows their own lifetime",
    );
  }
  return ttl;
}

const DEFAULT_TTL: ResolvedWriteTtl = Object.freeze({ kind: 'default' });

/** `values` are the member values written (an anchored TTL reads its anchor member). */
export function writeExpiry(t: EntityTable, ttl: ResolvedWriteTtl, values: Record<string, unknown>): WriteExpiry {
  switch (ttl.kind) {
    case 'duration':
      return fromNow(t, ttl.seconds, 'replace');
    case 'never':
      return { source: 'value', value: null, rule: 'replace' };
    case 'extend':
      return fromNow(t, ttl.seconds, 'extend');
    case 'keep':
      return byDefault(t, values, 'keep');
    case 'default':
      // The common case, a plain write on the database clock, needs no new object.
      return t.plainExpiry ?? byDefault(t, values, 'replace');
  }
}

function fromNow(t: EntityTable, seconds: number, rule: ConflictRule): WriteExpiry {
  if (t.nowMode === 'db') return { source: 'nowPlus', seconds, rule };
  return { source: 'value', value: t.encodeInstant(new Date(t.now().getTime() + seconds * 1000)), rule };
}

/** The entity default: now + TTL, anchor member + TTL, or never (no default declared). */
function byDefault(t: EntityTable, values: Record<string, unknown>, rule: ConflictRule): WriteExpiry {
  const declared = t.entity.ttl;
  if (!declared || declared.seconds === null) return { source: 'value', value: null, rule };
  if (declared.anchor?.source === 'explicit') {
    const anchor = values[declared.anchor.member];
    if (!(anchor instanceof Date)) return { source: 'value', value: null, rule };
    return { source: 'value', value: t.encodeInstant(new Date(anchor.getTime() + declared.seconds * 1000)), rule };
  }
  return fromNow(t, declared.seconds, rule);
}
