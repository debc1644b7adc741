import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { LifespanError, ModelBuilder } from '../../src';
import { FIELD_TYPES, type FieldType } from '../../src/model/types';
import { instanceOf } from '../../src/runtime/entity-values';
import { converterFor, decoderFor, encoderFor } from '../../src/providers/relational/codec';
import type { ColumnSpec } from '../../src/providers/relational/compile';
import { sqlFamily } from '../../src/providers/relational/families/by-dialect';
import { RELATIONAL_DIALECTS, type RelationalDialect } from '../../src/providers/relational/families/dialects';
import { compiledDecoder, compiledEncoder, rowToInstance } from '../../src/providers/relational/table/row-codec';

/**
 * The codecs compiled per entity (row-codec.ts) must accept, convert and refuse exactly what the
 * generic per-member codecs do, on every dialect, member type, nullability and key role: the
 * same bound value (-0 and NaN included), or the same error (code, message, place, hint).
 */

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

function outcome(fn: () => unknown): Outcome {
  try {
    return { ok: true, value: fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

function describeError(error: unknown): unknown {
  if (error instanceof LifespanError) {
    const { code, message, entity, member, store, hint } = error;
    return { kind: 'LifespanError', code, message, entity, member, store, hint };
  }
  return { kind: (error as Error)?.constructor?.name, message: (error as Error)?.message };
}

function expectSame(compiled: Outcome, generic: Outcome, value: unknown): void {
  if (generic.ok) {
    if (!compiled.ok) throw new Error(`generic bound ${String(value)}, compiled threw ${String(compiled.error)}`);
    if (!sameValue(compiled.value, generic.value)) {
      throw new Error(
        `bound values differ for ${String(value)}: ${String(compiled.value)} vs ${String(generic.value)}`,
      );
    }
    return;
  }
  if (compiled.ok) throw new Error(`generic refused ${String(value)}, compiled bound ${String(compiled.value)}`);
  expect(describeError(compiled.error)).toEqual(describeError(generic.error));
}

/** isDeepStrictEqual, except that two invalid Dates are the same value. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date && b instanceof Date) return Object.is(a.getTime(), b.getTime());
  return isDeepStrictEqual(a, b);
}

/** Values around every type's edges, and anything at all. */
const loneSurrogate = fc.constantFrom('\uD800', 'a\uDC00b', '\uDBFF\uDFFF', 'x\uD83D');
const edgeNumbers = fc.constantFrom(0, -0, NaN, Infinity, -Infinity, 1.5, 2 ** 53, -(2 ** 53), 2 ** 53 - 1, 1e308);
const dates = fc.oneof(fc.date({ noInvalidDate: false }), fc.constant(new Date(NaN)), fc.constant(new Date(0)));
const bigints = fc.oneof(fc.bigInt(), fc.constantFrom(2n ** 63n, -(2n ** 63n), 2n ** 63n - 1n, -(2n ** 63n) - 1n));
const anyValue = fc.oneof(
  fc.anything({ withBigInt: true, withDate: true, withTypedArray: true, withNullPrototype: true }),
  fc.string(),
  fc.string({ unit: 'binary' }),
  loneSurrogate,
  fc.uuid(),
  fc.double(),
  fc.integer(),
  edgeNumbers,
  bigints,
  fc.boolean(),
  dates,
  fc.uint8Array(),
  fc.constantFrom(null, undefined, Buffer.from('ab'), [1, 'a'], { a: 1 }, { a: undefined }, new (class X {})()),
);

const CASES = RELATIONAL_DIALECTS.flatMap((dialect) =>
  FIELD_TYPES.flatMap((type) =>
    [
      { nullable: false, key: false },
      { nullable: true, key: false },
      { nullable: false, key: true },
    ].map((role) => ({ dialect, type, ...role })),
  ),
);

function column(dialect: RelationalDialect, type: FieldType, nullable: boolean): ColumnSpec {
  return { name: 'm', member: 'm', fieldType: type, type: { sql: 'X', live: 'x', collation: null }, nullable };
}

/**
 * Every dialect of the RelationalDialect union, as a typed record: a dialect added to the union
 * does not compile here until it is listed, and then fails the test below until
 * RELATIONAL_DIALECTS (a plain array of the union, which could leave it out) has it too. The
 * member types need no such record: FieldType is derived from FIELD_TYPES.
 */
const EVERY_DIALECT: Record<RelationalDialect, true> = { sqlite: true, postgres: true, mariadb: true, mysql: true };

describe('compiled encoders bind and refuse what the generic encoders do', () => {
  test('the cases cover every dialect of the union', () => {
    expect(new Set(CASES.map((c) => c.dialect))).toEqual(new Set(Object.keys(EVERY_DIALECT)));
  });

  test.each(CASES)('$dialect $type (nullable: $nullable, key: $key)', ({ dialect, type, nullable, key }) => {
    const generic = encoderFor(dialect, column(dialect, type, nullable), { entity: 'E', member: 'm', key });
    const compiled = compiledEncoder(type, converterFor(sqlFamily(dialect), type), generic);
    fc.assert(
      fc.property(anyValue, (value) =>
        expectSame(
          outcome(() => compiled(value)),
          outcome(() => generic(value)),
          value,
        ),
      ),
      { numRuns: 400 },
    );
  });
});

describe('compiled decoders read what the generic decoders read', () => {
  const raws = fc.oneof(
    anyValue,
    fc.integer().map(String),
    fc.json(),
    fc.constantFrom('1', '0', 't', 'f', 1, 0, 1n, 0n, '2026-12-01 10:20:30.123', '2026-12-01T10:20:30.123Z'),
  );

  test.each(RELATIONAL_DIALECTS.flatMap((dialect) => FIELD_TYPES.map((type) => ({ dialect, type }))))(
    '$dialect $type',
    ({ dialect, type }) => {
      const generic = decoderFor(dialect, type);
      const compiled = compiledDecoder(type, generic);
      fc.assert(
        fc.property(raws, (raw) =>
          expectSame(
            outcome(() => compiled(raw)),
            outcome(() => generic(raw)),
            raw,
          ),
        ),
        { numRuns: 300 },
      );
    },
  );
});

describe('a row decodes onto the instance as instanceOf builds it from the decoded values', () => {
  class Reading {
    sensor = '';
    at = new Date(0);
    value = 0;
    note: string | null = null;
    describe(): string {
      return `${this.sensor}@${this.at.getTime()}`;
    }
  }
  const model = new ModelBuilder()
    .entity(Reading, (e) =>
      e
        .key((x) => x.sensor)
        .field((x) => x.note, { type: 'string', nullable: true })
        .field((x) => x.value, { type: 'number' })
        .field((x) => x.at, { type: 'date' }),
    )
    .build();
  const entity = model.entities[0];

  test('same members, same order, same prototype, on every dialect', () => {
    if (!entity) throw new Error('no entity');
    // Columns in another order than the fields: the instance still gets the field order.
    const members = ['value', 'sensor', 'at', 'note'];
    const types: FieldType[] = ['number', 'string', 'date', 'string'];
    for (const dialect of RELATIONAL_DIALECTS) {
      const generic = types.map((t) => decoderFor(dialect, t));
      const toInstance = rowToInstance(
        entity,
        members,
        types.map((t, i) => compiledDecoder(t, generic[i] as (raw: unknown) => unknown)),
      );
      const at = dialect === 'sqlite' ? 1764584430123 : '2025-12-01 10:20:30.123';
      for (const row of [
        [1.5, 's1', at, null],
        [2, 's2', at, 'n'],
      ]) {
        const values: Record<string, unknown> = {};
        members.forEach((m, i) => (values[m] = (generic[i] as (raw: unknown) => unknown)(row[i])));
        const expected = instanceOf<Reading>(entity, values);
        const actual = toInstance(row) as Reading;
        expect(Object.getPrototypeOf(actual)).toBe(Reading.prototype);
        expect(Object.keys(actual)).toEqual(Object.keys(expected as object));
        expect(actual).toEqual(expected);
        expect(actual.describe()).toBe(expected.describe());
      }
    }
  });
});
