import fc from 'fast-check';
import {
  canExpireSooner,
  effectiveTtl,
  expiredFilter,
  extendedTtl,
  isExpired,
  keptTtl,
  remainingSeconds,
  secondsOfHttpDate,
} from '../../src/providers/cosmos/item-expiry';
import { itemWrite, ttlPatch, type CurrentItem } from '../../src/providers/cosmos/item-writes';
import { MAX_COSMOS_TTL } from '../../src/providers/cosmos/semantics';

describe('effective ttl (the Cosmos docs table: container null/-1/n × item missing/-1/n)', () => {
  it.each([
    [null, undefined, null],
    [null, -1, null],
    [null, 2000, null],
    [-1, undefined, null],
    [-1, -1, null],
    [-1, 2000, 2000],
    [1000, undefined, 1000],
    [1000, -1, null],
    [1000, 2000, 2000],
  ])('container %p, item %p → %p', (container, item, expected) => {
    expect(effectiveTtl(item, container)).toBe(expected);
  });
});

describe('remaining life from _ts', () => {
  it('counts from _ts, inclusive at the boundary', () => {
    expect(remainingSeconds({ _ts: 1000 }, 60, 1030)).toBe(30);
    expect(remainingSeconds({ _ts: 1000, ttl: 10 }, 60, 1030)).toBe(-20);
    expect(isExpired({ _ts: 1000 }, 60, 1059)).toBe(false);
    expect(isExpired({ _ts: 1000 }, 60, 1060)).toBe(true);
    expect(isExpired({ _ts: 1000, ttl: -1 }, 60, 99999)).toBe(false);
    expect(isExpired({ _ts: 1000, ttl: 5 }, null, 99999)).toBe(false);
  });

  it('reads the server clock from an HTTP Date header', () => {
    expect(secondsOfHttpDate('Mon, 30 Nov 2026 01:19:40 GMT')).toBe(Date.UTC(2026, 10, 30, 1, 19, 40) / 1000);
    expect(secondsOfHttpDate(undefined)).toBeUndefined();
    expect(secondsOfHttpDate('not a date')).toBeUndefined();
  });
});

describe('extend: max(current expiry, now + n)', () => {
  it('keeps a longer remaining life and lengthens a shorter one', () => {
    expect(extendedTtl({ _ts: 1000 }, 3600, 60, 1100)).toBe(3500);
    expect(extendedTtl({ _ts: 1000, ttl: 30 }, 3600, 600, 1010)).toBe(600);
    expect(extendedTtl({ _ts: 1000, ttl: 5 }, 3600, 60, 5000)).toBe(60);
  });

  it('leaves an item that never expires as it is', () => {
    expect(extendedTtl({ _ts: 1000, ttl: -1 }, 3600, 60, 1100)).toBe(-1);
    expect(extendedTtl({ _ts: 1000 }, -1, 60, 1100)).toBeUndefined();
  });

  it('never shortens, never exceeds the service maximum, and never yields 0', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
        fc.option(fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: MAX_COSMOS_TTL })), { nil: undefined }),
        fc.oneof(fc.constant<number | null>(null), fc.constant(-1), fc.integer({ min: 1, max: MAX_COSMOS_TTL })),
        fc.integer({ min: 1, max: MAX_COSMOS_TTL }),
        fc.integer({ min: 0, max: 10_000_000 }),
        (ts, ttl, container, n, elapsed) => {
          const item = ttl === undefined ? { _ts: ts } : { _ts: ts, ttl };
          const now = ts + elapsed;
          const next = extendedTtl(item, container, n, now);
          const before = remainingSeconds(item, container, now);
          if (before === null) {
            expect(next).toBe(ttl);
            return;
          }
          expect(next).not.toBe(0);
          expect(next).toBeGreaterThanOrEqual(Math.min(n, MAX_COSMOS_TTL));
          expect(next).toBeLessThanOrEqual(MAX_COSMOS_TTL);
          // Written at `now`, the item then expires at now + next ≥ its old expiry (unless capped).
          if ((next as number) < MAX_COSMOS_TTL) expect(now + (next as number)).toBeGreaterThanOrEqual(now + before);
        },
      ),
    );
  });
});

describe('keep: the same expiry instant, as a ttl counted from the rewrite', () => {
  it('writes the remaining seconds, whether they come from the item ttl or the container default', () => {
    expect(keptTtl({ _ts: 1000, ttl: 300 }, 3600, 1100)).toBe(200);
    expect(keptTtl({ _ts: 1000 }, 3600, 1100)).toBe(3500);
    expect(keptTtl({ _ts: 1000, ttl: 300 }, -1, 1100)).toBe(200);
  });

  it('keeps the property of an item that never expires (absent stays absent)', () => {
    expect(keptTtl({ _ts: 1000, ttl: -1 }, 3600, 1100)).toBe(-1);
    expect(keptTtl({ _ts: 1000 }, -1, 1100)).toBeUndefined();
    expect(keptTtl({ _ts: 1000, ttl: 300 }, null, 99999)).toBe(300);
  });

  it('written at now, the item expires when it did before (never 0, never past the maximum)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_600_000_000, max: 1_900_000_000 }),
        fc.option(fc.integer({ min: 1, max: 100_000_000 }), { nil: undefined }),
        fc.oneof(fc.constant(-1), fc.integer({ min: 1, max: 100_000_000 })),
        fc.integer({ min: 0, max: 100_000_000 }),
        (ts, ttl, container, elapsed) => {
          const item = ttl === undefined ? { _ts: ts } : { _ts: ts, ttl };
          const now = ts + elapsed;
          const before = remainingSeconds(item, container, now);
          if (before === null || before <= 0) return;
          const kept = keptTtl(item, container, now) as number;
          expect(now + kept).toBe(now + before);
          expect(remainingSeconds({ _ts: now, ttl: kept }, container, now)).toBe(before);
        },
      ),
    );
  });
});

describe('which DefaultTimeToLive changes can expire stored items sooner', () => {
  it.each([
    [null, 3600, true],
    [null, -1, true],
    [-1, 3600, true],
    [3600, 60, true],
    [3600, 7200, false],
    [3600, -1, false],
    [3600, null, false],
    [-1, null, false],
    [3600, 3600, false],
  ])('%p → %p: %p', (from, to, expected) => {
    expect(canExpireSooner(from, to)).toBe(expected);
  });
});

describe('expiredFilter (the query form of isExpired)', () => {
  it('is null when nothing can expire, and uses a cutoff computed from the given now for the container default', () => {
    expect(expiredFilter(null, 5000)).toBeNull();
    expect(expiredFilter(-1, 5000)).toEqual({
      sql: '(IS_NUMBER(c.ttl) AND c.ttl > 0 AND c._ts + c.ttl <= @now)',
      parameters: [{ name: '@now', value: 5000 }],
    });
    expect(expiredFilter(60, 5000, 'Old')?.parameters).toEqual([
      { name: '@now', value: 5000 },
      { name: '@cutoffOld', value: 4940 },
    ]);
  });
});

describe('item writes per per-write TTL value', () => {
  const body = { id: 'a', x: 1 };
  const current = (raw: Record<string, unknown>): CurrentItem => ({
    raw: { id: 'a', _etag: 'e1', _ts: 1000, ...raw },
    containerTtl: 3600,
    serverNow: 1100,
  });

  it('n → ttl: n, default → no ttl property, never → ttl: -1', () => {
    expect(itemWrite('upsert', body, { kind: 'duration', seconds: 90 })).toEqual({
      op: 'upsert',
      body: { ...body, ttl: 90 },
    });
    expect(itemWrite('upsert', { ...body, ttl: 5 }, { kind: 'default' })).toEqual({ op: 'upsert', body });
    expect(itemWrite('insert', body, { kind: 'never' })).toEqual({ op: 'create', body: { ...body, ttl: -1 } });
  });

  it('keep replaces on the etag with the remaining seconds, so the expiry instant stays', () => {
    // _ts 1000, now 1100: an own ttl of 177 has 77 s left, the container default 3600 has 3500.
    expect(itemWrite('upsert', body, { kind: 'keep' }, current({ ttl: 177 }))).toEqual({
      op: 'replace',
      body: { ...body, ttl: 77 },
      etag: 'e1',
    });
    expect(itemWrite('upsert', body, { kind: 'keep' }, current({}))).toEqual({
      op: 'replace',
      body: { ...body, ttl: 3500 },
      etag: 'e1',
    });
    expect(itemWrite('upsert', body, { kind: 'keep' }, current({ ttl: -1 }))).toEqual({
      op: 'replace',
      body: { ...body, ttl: -1 },
      etag: 'e1',
    });
    expect(itemWrite('upsert', body, { kind: 'keep' })).toEqual({ op: 'create', body });
  });

  it('an item already due counts as absent: keep writes no ttl, extend writes n, nothing is carried over', () => {
    const due = current({ ttl: 50, createdAt: '2020-01-01T00:00:00.000Z' });
    const fresh = { ...body, createdAt: '2026-01-01T00:00:00.000Z' };
    expect(itemWrite('upsert', fresh, { kind: 'keep' }, due, ['createdAt'])).toEqual({
      op: 'replace',
      body: fresh,
      etag: 'e1',
    });
    expect(itemWrite('upsert', fresh, { kind: 'extend', seconds: 60 }, due)).toMatchObject({ body: { ttl: 60 } });
  });

  it('an upsert carries preserved stored properties (@CreatedAt) over, on the etag', () => {
    const stored = current({ createdAt: '2020-01-01T00:00:00.000Z', ttl: 500 });
    const fresh = { ...body, createdAt: '2026-01-01T00:00:00.000Z' };
    expect(itemWrite('upsert', fresh, { kind: 'default' }, stored, ['createdAt'])).toEqual({
      op: 'replace',
      body: { ...body, createdAt: '2020-01-01T00:00:00.000Z' },
      etag: 'e1',
    });
    expect(itemWrite('upsert', fresh, { kind: 'duration', seconds: 90 }, undefined, ['createdAt'])).toEqual({
      op: 'create',
      body: { ...fresh, ttl: 90 },
    });
    // An insert never reads: it creates, and a duplicate is the service's 409.
    expect(itemWrite('insert', fresh, { kind: 'default' }, stored, ['createdAt'])).toEqual({
      op: 'create',
      body: fresh,
    });
  });

  it('extend replaces on the etag with max(remaining, n); a new item gets n', () => {
    expect(itemWrite('upsert', body, { kind: 'extend', seconds: 60 }, current({}))).toEqual({
      op: 'replace',
      body: { ...body, ttl: 3500 },
      etag: 'e1',
    });
    expect(itemWrite('upsert', body, { kind: 'extend', seconds: 60 })).toEqual({
      op: 'create',
      body: { ...body, ttl: 60 },
    });
  });

  it('never writes ttl 0 or null', () => {
    expect(() => itemWrite('upsert', body, { kind: 'duration', seconds: 0 })).toThrow(
      /COSMOS|not a valid Cosmos DB ttl/,
    );
  });

  it('setTtl patches /ttl: set n, set -1, remove (set+remove when absent), nothing for keep', () => {
    expect(ttlPatch({ kind: 'duration', seconds: 30 }, current({}))).toEqual([{ op: 'set', path: '/ttl', value: 30 }]);
    expect(ttlPatch({ kind: 'never' }, current({ ttl: 5 }))).toEqual([{ op: 'set', path: '/ttl', value: -1 }]);
    expect(ttlPatch({ kind: 'default' }, current({ ttl: 5 }))).toEqual([{ op: 'remove', path: '/ttl' }]);
    expect(ttlPatch({ kind: 'default' }, current({}))).toEqual([
      { op: 'set', path: '/ttl', value: -1 },
      { op: 'remove', path: '/ttl' },
    ]);
    expect(ttlPatch({ kind: 'keep' }, current({ ttl: 5 }))).toBeNull();
    expect(ttlPatch({ kind: 'extend', seconds: 10 }, current({ ttl: -1 }))).toBeNull();
    expect(ttlPatch({ kind: 'extend', seconds: 10 }, current({}))).toEqual([{ op: 'set', path: '/ttl', value: 3500 }]);
  });
});
