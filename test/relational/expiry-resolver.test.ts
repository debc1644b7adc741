/** One expiry resolver for writes and setTtl: they agree on every per-write kind but where an anchored default counts from. */
import 'reflect-metadata';
import { findEntity } from '../../src/model/types';
import type { ResolvedWriteTtl, WriteTtlKind } from '../../src/model/per-write-ttl';
import { compileSchema, type TableSpec } from '../../src/providers/relational/compile';
import { EntityTable } from '../../src/providers/relational/table/entity-table';
import { storedRowExpiry, writeExpiry } from '../../src/providers/relational/write/expiry-resolver';
import type { WriteExpiry } from '../../src/providers/relational/write/write-expiry';
import { Session, Visit, testModel } from './support/models';

const model = testModel('resolver');
const schema = compileSchema(model, 'sqlite', 'emulate');
const NOW = Date.UTC(2030, 0, 1);
const AT = Date.UTC(2031, 0, 1);

function tableOf(target: typeof Session | typeof Visit, clock: (() => Date) | undefined): EntityTable {
  const entity = findEntity(model, target);
  if (!entity) throw new Error('entity missing from the test model');
  const spec = schema.tables.find((t) => t.entity === entity.name) as TableSpec;
  return new EntityTable(entity, spec, 'sqlite', 'emulate', clock);
}

/** One value of each kind: a new kind fails to compile here until it is resolved in both places. */
const KINDS: Record<WriteTtlKind, ResolvedWriteTtl> = {
  duration: { kind: 'duration', seconds: 60 },
  default: { kind: 'default' },
  never: { kind: 'never' },
  keep: { kind: 'keep' },
  extend: { kind: 'extend', seconds: 120 },
  at: { kind: 'at', at: new Date(AT) },
};

const HOUR = 3600;

/**
 * What each kind resolves to on Session (TTL 1h, counted from the write): the database clock adds
 * the seconds in SQL (`nowPlus`); an injected clock gives the instant itself (SQLite: epoch ms).
 */
const ON_THE_DATABASE_CLOCK: Record<WriteTtlKind, WriteExpiry> = {
  duration: { source: 'nowPlus', seconds: 60, rule: 'replace' },
  default: { source: 'nowPlus', seconds: HOUR, rule: 'replace' },
  never: { source: 'value', value: null, rule: 'replace' },
  keep: { source: 'nowPlus', seconds: HOUR, rule: 'keep' },
  extend: { source: 'nowPlus', seconds: 120, rule: 'extend' },
  at: { source: 'value', value: AT, rule: 'replace' },
};
const ON_AN_INJECTED_CLOCK: Record<WriteTtlKind, WriteExpiry> = {
  duration: { source: 'value', value: NOW + 60_000, rule: 'replace' },
  default: { source: 'value', value: NOW + HOUR * 1000, rule: 'replace' },
  never: { source: 'value', value: null, rule: 'replace' },
  keep: { source: 'value', value: NOW + HOUR * 1000, rule: 'keep' },
  extend: { source: 'value', value: NOW + 120_000, rule: 'extend' },
  at: { source: 'value', value: AT, rule: 'replace' },
};

describe.each([
  ['database clock', undefined, ON_THE_DATABASE_CLOCK],
  ['injected clock', () => new Date(NOW), ON_AN_INJECTED_CLOCK],
] as const)('%s', (_name, clock, expected) => {
  test.each(Object.values(KINDS))('a write and setTtl resolve %o alike (entity default counts from now)', (ttl) => {
    const t = tableOf(Session, clock);
    expect(writeExpiry(t, ttl, { id: 's', createdAt: new Date(NOW) })).toEqual(expected[ttl.kind]);
    expect(storedRowExpiry(t, ttl)).toEqual(expected[ttl.kind]);
  });

  test.each(Object.values(KINDS))('anchored entity: %o differs only for the default', (ttl) => {
    const t = tableOf(Visit, clock);
    const lastSeenAt = new Date(NOW + 60_000);
    const written = writeExpiry(t, ttl, { id: 'v', page: '/', lastSeenAt });
    const stored = storedRowExpiry(t, ttl);
    if (ttl.kind === 'default' || ttl.kind === 'keep') {
      // A write counts from the anchor it writes; setTtl from the anchor stored in the row.
      const rule = ttl.kind === 'keep' ? 'keep' : 'replace';
      expect(written).toEqual({ source: 'value', value: NOW + 60_000 + 3600_000, rule });
      expect(stored).toEqual({ source: 'anchorPlus', seconds: 3600, member: 'lastSeenAt', rule });
    } else {
      expect(stored).toEqual(written);
    }
  });
});
