import { resolveWriteTtl, type PerWriteTtl } from '../../model/per-write-ttl';
import { recordWriteTtl, secondsUntil } from '../../runtime/write-instant';
import { unsupported } from '../../runtime/write-ttl';
import type { EntityMapping } from './compile';
import { CASSANDRA_MAX_TTL_SECONDS, SAY, STORE } from './semantics';
import { checkTtlLimits, type TtlClock } from './ttl-limits';

/** What one write says about expiry: no USING TTL clause (table default), or USING TTL n (0 = never). */
export type TtlClause = { readonly using: false } | { readonly using: true; readonly seconds: number };

/** Maps the per-write vocabulary to Cassandra (DESIGN.md, per-store table), checking the node's limits first. */
export function ttlClause(
  mapping: EntityMapping,
  requested: PerWriteTtl | undefined,
  clock: TtlClock,
  /** The record written (an @ExpiresAt member's instant is its default); omitted for setTtl. */
  values: object = {},
): TtlClause {
  const { entity } = mapping;
  // USING TTL needs no schema setup, but the perWrite declaration is asked for as on every store;
  // a counter table can never declare it, and the counter reason is the one worth reporting.
  const ttl = mapping.isCounter ? resolveWriteTtl(requested) : recordWriteTtl(entity, requested, STORE, values);
  const place = { entity: entity.name };
  if (mapping.isCounter && ttl.kind !== 'default') {
    throw unsupported(entity, STORE, ttl, 'counter updates cannot carry USING TTL', 'write counters without a TTL');
  }
  switch (ttl.kind) {
    case 'duration':
      checkTtlLimits(ttl.seconds, clock, place, 'USING TTL');
      return { using: true, seconds: ttl.seconds };
    case 'default':
      // The node applies the table default to this write and rejects it past the ceiling just the same.
      if (mapping.table.defaultTtl > 0) checkTtlLimits(mapping.table.defaultTtl, clock, place, 'default_time_to_live');
      return { using: false };
    case 'never':
      return { using: true, seconds: 0 };
    case 'at': {
      // Computed now, by the clock the node's limits are judged with (this process's by default):
      // never 0, which would mean "never expires" here.
      const instantClock = { nowMs: clock.now.getTime(), name: "this process's clock" };
      const seconds = secondsUntil(ttl, instantClock, { entity, store: STORE }, CASSANDRA_MAX_TTL_SECONDS);
      checkTtlLimits(seconds, clock, place, 'USING TTL (computed from { at })');
      return { using: true, seconds };
    }
    case 'keep':
      throw unsupported(entity, STORE, ttl, SAY.keepUnsupported, "write with a duration, 'default' or 'never'");
    case 'extend':
      throw unsupported(
        entity,
        STORE,
        ttl,
        SAY.extendUnsupported,
        'read repository.ttl(key) and write with the duration you want',
      );
  }
}
