/**
 * Issues 28.6 and 29: a write's expiry resolved once, from the table spec's seconds and typed
 * anchor, and bound by a plan compiled per table and expiry shape. The compiled binding (the row's
 * columns, then a tail decided once) must give every statement exactly the parameters the
 * slot-by-slot binder gives it, for every per-write TTL kind, dialect, clock and write.
 */
import 'reflect-metadata';
import { findEntity, type EntityClass } from '../../src/model/types';
import type { PerWriteTtl, WriteTtlKind } from '../../src/model/per-write-ttl';
import { compileSchema, type TableSpec } from '../../src/providers/relational/compile';
import type { RelationalDialect } from '../../src/providers/relational/families/dialects';
import { countsFromText } from '../../src/providers/relational/schema/ttl-anchor';
import { EntityTable } from '../../src/providers/relational/table/entity-table';
import { bind } from '../../src/providers/relational/table/statement';
import { resolveTtl, writeExpiry } from '../../src/providers/relational/write/expiry-resolver';
import { bindWrite, writePlan, type RowWrite } from '../../src/providers/relational/write/write-plan';
import { WriteInstant } from '../../src/providers/relational/write/timestamps';
import { stampTimestamps } from '../../src/runtime/entity-values';
import { Cart, Session, Visit, make, testModel } from './support/models';

const model = testModel('writeplan');
const NOW = Date.UTC(2030, 0, 1);
const AT = new Date(Date.UTC(2031, 0, 1));
/** The instant a write's timestamps take (WriteInstant). */
const STAMPED = Date.UTC(2029, 5, 1);

function tableOf(
  target: EntityClass,
  dialect: RelationalDialect,
  clock?: () => Date,
  spec?: (s: TableSpec) => TableSpec,
): EntityTable {
  const entity = findEntity(model, target);
  if (!entity) throw new Error('entity missing from the test model');
  const compiled = compileSchema(model, dialect, 'emulate').tables.find((t) => t.entity === entity.name) as TableSpec;
  return new EntityTable(entity, spec ? spec(compiled) : compiled, dialect, 'emulate', clock);
}

describe('the typed anchor', () => {
  test('the table spec carries what the expiry counts from, typed, and the record text derived from it', () => {
    const tables = compileSchema(model, 'sqlite', 'emulate').tables;
    const visit = tables.find((t) => t.entity === 'Visit');
    const session = tables.find((t) => t.entity === 'Session');
    expect(visit?.ttlAnchor).toEqual({ kind: 'member', member: 'lastSeenAt' });
    expect(session?.ttlAnchor).toEqual({ kind: 'write' });
    // The TTL record keeps its stored text format.
    expect(visit?.ttlCountsFrom).toBe('member:lastSeenAt');
    expect(session?.ttlCountsFrom).toBe('last-write');
    expect(countsFromText({ kind: 'instant', member: 'endsAt' })).toBe('instant:endsAt');
    expect(compileSchema(model, 'sqlite', 'ignore').tables.every((t) => t.ttlAnchor === null)).toBe(true);
  });

  test("a table's default TTL has one source, its spec", () => {
    // A spec that says 2 minutes where the entity declares 1 hour: the writes follow the spec.
    const t = tableOf(Session, 'sqlite', undefined, (s) => ({ ...s, ttlSeconds: 120 }));
    expect(t.defaultTtl).toEqual({ seconds: 120, anchor: { kind: 'write' } });
    const expiry = writeExpiry(t, { kind: 'default' }, { id: 's', createdAt: new Date(NOW), payload: '' });
    expect(expiry).toEqual({ source: 'nowPlus', seconds: 120, rule: 'replace' });
  });

  test('an anchored default counts from the member the spec names', () => {
    const t = tableOf(Visit, 'sqlite', () => new Date(NOW));
    expect(t.defaultTtl).toEqual({ seconds: 3600, anchor: { kind: 'member', member: 'lastSeenAt' } });
    const lastSeenAt = new Date(NOW + 60_000);
    expect(writeExpiry(t, { kind: 'default' }, { id: 'v', page: '/', lastSeenAt })).toEqual({
      source: 'value',
      value: NOW + 60_000 + 3600_000,
      rule: 'replace',
    });
  });
});

/** One TTL of each kind a caller passes (Cart declares perWrite: every kind is allowed). */
const TTLS: Record<WriteTtlKind, PerWriteTtl | undefined> = {
  duration: 90,
  default: undefined,
  never: 'never',
  keep: 'keep',
  extend: { extend: '2m' },
  at: { at: AT },
};

const DIALECTS: readonly RelationalDialect[] = ['sqlite', 'postgres', 'mariadb'];
const CLOCKS = [
  ['database clock', undefined],
  ['injected clock', () => new Date(NOW)],
] as const;
const WRITES: readonly RowWrite[] = ['insert', 'upsert'];

const cases = DIALECTS.flatMap((dialect) =>
  CLOCKS.flatMap(([clockName, clock]) =>
    WRITES.flatMap((write) =>
      (Object.keys(TTLS) as WriteTtlKind[]).map((kind) => ({ dialect, clockName, clock, write, kind })),
    ),
  ),
);

describe('the compiled write plan', () => {
  test.each(cases)(
    '$dialect, $clockName, $write with a $kind TTL: the parameters are the statement slots, in order',
    ({ dialect, clock, write, kind }) => {
      const t = tableOf(Cart, dialect, clock);
      const cart = make(Cart, { id: 'c1', items: ['a'] });
      const before = { ...cart };
      const bound = bindWrite(t, write, cart, TTLS[kind], undefined, new WriteInstant(STAMPED));
      // The reference: the same row, its timestamps stamped, and expiry bound slot by slot from the statement itself.
      const values = stampTimestamps(t.entity, cart as unknown as Record<string, unknown>, () => new Date(STAMPED));
      const expiry = writeExpiry(t, resolveTtl(t, TTLS[kind]), values);
      const plan = writePlan(t, write, expiry.source, expiry.rule);
      expect(bound.statement).toBe(plan.statement);
      // The caller's instance is left as given (as on every store).
      expect({ ...cart }).toEqual(before);
      const ctx = {
        cols: t.encodeCols(values),
        now: t.nowParam(),
        seconds: expiry.seconds,
        expiry: expiry.value,
      };
      expect(bound.params).toEqual(bind(plan.statement, ctx));
      expect(bound.params).toHaveLength(plan.statement.slots.length);
      // Without a conditional insert (MariaDB), an insert first clears an expired row with the key.
      if (write === 'insert' && dialect === 'mariadb') {
        expect(bound.before?.statement.sql).toMatch(/^DELETE FROM/);
        expect(bound.before?.params[0]).toBe('c1');
      } else {
        expect(bound.before).toBeNull();
      }
    },
  );

  test('each per-write kind decides one statement per table: the plan is compiled once and reused', () => {
    const t = tableOf(Cart, 'sqlite');
    const first = bindWrite(t, 'insert', make(Cart, { id: 'a' }), 60);
    const second = bindWrite(t, 'insert', make(Cart, { id: 'b' }), 3600);
    expect(second.statement).toBe(first.statement);
    expect(first.params.at(-1)).toBe(60);
    expect(second.params.at(-1)).toBe(3600);
    // A value-bound expiry ('never') is another statement: expires_at = ? instead of now + ?.
    const never = bindWrite(t, 'insert', make(Cart, { id: 'c' }), 'never');
    expect(never.statement).not.toBe(first.statement);
    expect(never.params.at(-1)).toBeNull();
  });

  test('the row is encoded before the TTL is read: a bad value fails first, as before', () => {
    const t = tableOf(Cart, 'sqlite');
    const bad = make(Cart, { id: 7 as unknown as string });
    expect(() => bindWrite(t, 'insert', bad, 'no such duration' as PerWriteTtl)).toThrow(
      expect.objectContaining({ code: 'VALUE_INVALID' }),
    );
  });
});
