/**
 * Issue 13: the whole text must be one duration, fractions follow one rule in every form, and
 * every JavaScript value gets a TtlError, never a TypeError.
 */
import fc from 'fast-check';
import { formatDuration, MAX_TTL_SECONDS, parseDuration, TtlError } from '../../src';
import { resolveWriteTtl } from '../../src/model/per-write-ttl';
import { thrown } from './thrown';

function codeOf(input: unknown): string {
  try {
    return `accepted ${parseDuration(input)}`;
  } catch (error) {
    if (error instanceof TtlError) return error.code;
    throw error;
  }
}

describe('malformed ISO 8601 text is refused, not read as a prefix', () => {
  test.each([
    'PT1H 30M',
    'PT1H30',
    'PT1S1M',
    'PT2H-1M',
    'P-1DT25H',
    'P1D; DROP TABLE x',
    'P1Dxyz',
    'P1DT',
    'PT1H1H',
    'PT1,5H',
    'P1W2D',
    'PT1.5H30M',
    'P',
    'PT',
    '1h 30m',
    '30m1h',
    '1h1h',
    '1.5h30m',
  ])('%p', (text) => {
    expect(codeOf(text)).toBe('TTL_UNKNOWN_FORMAT');
    expect(() => parseDuration(text)).toThrow(JSON.stringify(text));
  });

  test("a ',' decimal sign gets a hint to write '.'", () => {
    expect(() => parseDuration('PT1,5H')).toThrow(/decimal sign.*PT1\.5H/);
  });
});

describe('one rule for fractions: the exact total must be whole seconds, in every form', () => {
  test.each([
    ['PT0.9999999S', 'TTL_FRACTIONAL'],
    [{ seconds: 1.0000001 }, 'TTL_FRACTIONAL'],
    [1.0000001, 'TTL_FRACTIONAL'],
    ['0.5s', 'TTL_FRACTIONAL'],
    [{ hours: 1 / 3 }, 'TTL_FRACTIONAL'],
    ['1.5h', 'accepted 5400'],
    [{ hours: 1.5 }, 'accepted 5400'],
    ['PT1.5H', 'accepted 5400'],
    [{ hours: 0.1 }, 'accepted 360'],
    ['0.1h', 'accepted 360'],
    ['1h30m', 'accepted 5400'],
    ['1d12h', 'accepted 129600'],
    ['P1DT0.5H', 'accepted 88200'],
  ])('%p → %s', (input, outcome) => {
    expect(codeOf(input)).toBe(outcome);
  });
});

describe('calendar units and the limit get their own messages', () => {
  test.each(['10y', '2mo', '1 year', 'P1Y', 'P2M', 'P1Y2M3D'])('%p', (text) => {
    expect(codeOf(text)).toBe('TTL_CALENDAR_UNIT');
    expect(() => parseDuration(text)).toThrow(/years or months/);
  });

  test.each([2 ** 31, '2147483648s', `${'9'.repeat(40)}d`, { days: 1e6 }])('%p is over the limit', (input) => {
    let caught: unknown;
    try {
      parseDuration(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'TTL_TOO_LARGE', hint: expect.stringContaining(String(MAX_TTL_SECONDS)) });
  });
});

describe('exotic JavaScript values get a TtlError that names them', () => {
  const throwingGetter = Object.defineProperty({}, 'hours', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
  const noToString = { toString: 1, hours: 'x' };
  const nullProto = Object.assign(Object.create(null) as object, { hours: 1n });
  test.each([
    ['a bigint', 1n, 'TTL_INVALID_TYPE'],
    ['a symbol', Symbol('s'), 'TTL_INVALID_TYPE'],
    ['a function', () => 1, 'TTL_INVALID_TYPE'],
    ['a Date', new Date(), 'TTL_INVALID_TYPE'],
    ['a Map', new Map(), 'TTL_INVALID_TYPE'],
    ['a bigint part', { hours: 1n }, 'TTL_INVALID_PART'],
    ['a null-prototype object with a bigint', nullProto, 'TTL_INVALID_PART'],
    ['a toString that is not a function', noToString, 'TTL_UNKNOWN_UNIT'],
    ['a getter that throws', throwingGetter, 'TTL_INVALID_PART'],
    ['a __proto__ key', JSON.parse('{"__proto__": 1}') as unknown, 'TTL_UNKNOWN_UNIT'],
  ])('%s', (_label, input, code) => {
    expect(codeOf(input)).toBe(code);
  });

  test('a null-prototype duration object is a duration', () => {
    expect(parseDuration(Object.assign(Object.create(null) as object, { minutes: 2 }))).toBe(120);
  });

  test('per-write values: a bigint, a symbol, an extend getter that throws', () => {
    const extend = Object.defineProperty({}, 'extend', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    for (const value of [1n, Symbol('x'), { extend: 1n }, extend, Object.create(null) as object]) {
      expect(() => resolveWriteTtl(value as never)).toThrow(TtlError);
    }
  });
});

/**
 * The oracle is written independently of the parser: the two grammars as plain regular
 * expressions, with the fraction-only-last and weeks-alone rules checked by hand.
 */
const AMOUNT = String.raw`\d+(?:\.\d+)?`;
function oracleAccepts(text: string): boolean {
  const t = text.trim();
  const short = new RegExp(`^(${AMOUNT}d)?(${AMOUNT}h)?(${AMOUNT}m)?(${AMOUNT}s)?$`).exec(t);
  const iso = new RegExp(`^P(${AMOUNT}W|(${AMOUNT}D)?(T(${AMOUNT}H)?(${AMOUNT}M)?(${AMOUNT}S)?)?)$`, 'i').exec(t);
  const amounts = short
    ? short.slice(1)
    : iso
      ? [iso[2], iso[4], iso[5], iso[6], iso[1]?.endsWith('W') ? iso[1] : undefined]
      : null;
  if (!amounts) return false;
  const present = amounts.filter((a): a is string => a !== undefined);
  if (present.length === 0) return false;
  if (iso && /T$/i.test(t)) return false;
  return present.slice(0, -1).every((a) => !a.includes('.'));
}

describe('properties', () => {
  const durationAlphabet = fc.string({
    unit: fc.constantFrom(...'PTYMWDHSpt0123456789.,-+ smhdy;xſ'.split('')),
    maxLength: 14,
  });
  const anyInput = fc.oneof(
    durationAlphabet,
    fc.string(),
    fc.double(),
    fc.integer(),
    fc.bigInt(),
    fc.anything({
      withBigInt: true,
      withNullPrototype: true,
      withMap: true,
      withSet: true,
      withDate: true,
      withBoxedValues: true,
      withTypedArray: true,
      withSparseArray: true,
    }),
    fc.dictionary(
      fc.constantFrom('days', 'hours', 'minutes', 'seconds', 'weeks', '__proto__', 'toString'),
      fc.anything({ withBigInt: true }),
    ),
    fc.record({ hours: fc.double(), minutes: fc.oneof(fc.integer(), fc.bigInt()) }, { requiredKeys: [] }),
  );

  test('any value: a whole in-range number of seconds, or a TtlError (never a TypeError)', () => {
    fc.assert(
      fc.property(anyInput, (value) => {
        try {
          const seconds = parseDuration(value);
          return Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_TTL_SECONDS;
        } catch (error) {
          return error instanceof TtlError && error.message.length > 0 && !!error.hint;
        }
      }),
      { numRuns: 3000 },
    );
  });

  test('an accepted string is well formed and round-trips through formatDuration to the same seconds', () => {
    fc.assert(
      fc.property(fc.oneof(durationAlphabet, fc.string()), (text) => {
        let seconds: number;
        try {
          seconds = parseDuration(text);
        } catch {
          return true;
        }
        return oracleAccepts(text) && parseDuration(formatDuration(seconds)) === seconds;
      }),
      { numRuns: 5000 },
    );
  });

  test('a well-formed duration with junk inserted anywhere is refused', () => {
    const parts = fc.record({
      d: fc.option(fc.nat(400)),
      h: fc.option(fc.nat(30)),
      m: fc.option(fc.nat(90)),
      s: fc.option(fc.nat(90)),
      iso: fc.boolean(),
    });
    const junk = fc.constantFrom(' ', ',', ';', '-', 'x', '1', 'H', 'M', 'S', 'T', 'D', 'P', '.', '1H', 'DROP');
    fc.assert(
      fc.property(parts, junk, fc.nat(), ({ d, h, m, s, iso }, extra, at) => {
        const time = `${h !== null ? `${h}H` : ''}${m !== null ? `${m}M` : ''}${s !== null ? `${s}S` : ''}`;
        const text = iso
          ? `P${d !== null ? `${d}D` : ''}${time ? `T${time}` : ''}`
          : `${d !== null ? `${d}d` : ''}${h !== null ? `${h}h` : ''}${m !== null ? `${m}m` : ''}${s !== null ? `${s}s` : ''}`;
        const position = at % (text.length + 1);
        const mutated = text.slice(0, position) + extra + text.slice(position);
        const expected = (d ?? 0) * 86400 + (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
        if (oracleAccepts(text) && expected > 0) expect(parseDuration(text)).toBe(expected);
        if (!oracleAccepts(mutated)) expect(() => parseDuration(mutated)).toThrow(TtlError);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('review of issue 13: text, signs, hints and sizes', () => {
  test.each(['pT1ſ', 'PT1ſ', '1ſ', 'P1ᴅ', '１h', 'PT1Ｈ'])(
    'non-ASCII text %p is refused, not upper-cased into ASCII',
    (text) => {
      expect(codeOf(text)).toBe('TTL_UNKNOWN_FORMAT');
    },
  );

  test.each([
    ['60', 'TTL_NO_UNIT'],
    ['1.0', 'TTL_NO_UNIT'],
    ['1.5', 'TTL_FRACTIONAL'],
    ['0', 'TTL_NOT_POSITIVE'],
    ['99999999999', 'TTL_TOO_LARGE'],
    ['-60', 'TTL_NOT_POSITIVE'],
    ['-1h', 'TTL_NOT_POSITIVE'],
    ['-1h30m', 'TTL_NOT_POSITIVE'],
    ['-1.5h', 'TTL_NOT_POSITIVE'],
    ['-PT1H', 'TTL_NOT_POSITIVE'],
    ['+60', 'TTL_UNKNOWN_FORMAT'],
    ['+1h', 'TTL_UNKNOWN_FORMAT'],
    ['+PT1H', 'TTL_UNKNOWN_FORMAT'],
    ['--1h', 'TTL_UNKNOWN_FORMAT'],
    ['- 1h', 'TTL_UNKNOWN_FORMAT'],
    ['-x', 'TTL_UNKNOWN_FORMAT'],
  ])('%p: %s', (text, code) => {
    expect(codeOf(text)).toBe(code);
  });

  test("a bare number's hint suggests its whole seconds, which parse", () => {
    const error = thrownTtl('1.0');
    expect(error.hint).toBe("write the number 1 (seconds) or '1s'");
  });

  test.each([
    ['PT0.' + '1'.repeat(400) + 'S', 'TTL_FRACTIONAL', /comes to 0\.1{15}…1{5} s/],
    ['1'.repeat(400) + '.5s', 'TTL_TOO_LARGE', /is 1\.111e\+399 s, over/],
    [{ days: 1e308 }, 'TTL_TOO_LARGE', /is 8\.640e\+312 s, over/],
    ['9'.repeat(20) + 's', 'TTL_TOO_LARGE', /is 9\.999e\+19 s, over/],
    ['2147483648s', 'TTL_TOO_LARGE', /is 2147483648 s, over/],
  ])('an oversized total is checked before it is printed, and printed short', (input, code, message) => {
    const error = thrownTtl(input);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
    const shown = /(?:is|comes to) (\S+) s/.exec(error.message)?.[1] ?? '';
    expect(shown).not.toMatch(/NaN|Infinity|\d{16}/);
  });

  test.each([
    ['PT1.' + '0'.repeat(18) + '1S', /comes to 1\.0{18}1 s/],
    ['PT1.' + '0'.repeat(60) + '1S', /comes to 1\.0{15}…00001 s/],
  ])('a fraction shows the digit that makes it not whole: %s', (input, message) => {
    const error = thrownTtl(input);
    expect(error.code).toBe('TTL_FRACTIONAL');
    expect(error.message).toMatch(message);
  });

  test.each([
    [{ hours: 1, [Symbol('x')]: 5 }, 'TTL_UNKNOWN_UNIT', /unknown unit Symbol\(x\)/],
    [{ [Symbol('only')]: 5 }, 'TTL_UNKNOWN_UNIT', /unknown unit Symbol\(only\)/],
  ])('a symbol key in a duration object is refused, not ignored', (input, code, message) => {
    const error = thrownTtl(input);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  test('a symbol key next to extend is refused, not ignored', () => {
    const error = thrown(() => resolveWriteTtl({ extend: '1h', [Symbol('x')]: 1 } as never));
    expect(error).toBeInstanceOf(TtlError);
    expect(error).toMatchObject({ code: 'TTL_INVALID_EXTEND' });
    expect((error as Error).message).toMatch(/Symbol\(x\)/);
  });
});

/** The TtlError parseDuration throws for `input`. */
function thrownTtl(input: unknown): TtlError {
  const error = thrown(() => parseDuration(input));
  if (!(error instanceof TtlError)) throw new Error(`expected a TtlError for ${String(input)}, got ${String(error)}`);
  return error;
}

/** The literals a hint suggests: each quoted value and each "the number N". */
function suggestedLiterals(hint: string): string[] {
  const quoted = [...hint.matchAll(/'([^']*)'/g)].map((m) => m[1] as string);
  const numbers = [...hint.matchAll(/the number (\S+)/g)].map((m) => m[1] as string);
  return [...quoted, ...numbers];
}

/** Every literal the hint suggests is accepted as a duration or a per-write value. */
function expectHintLiteralsAccepted(hint: string | undefined): void {
  for (const literal of suggestedLiterals(hint ?? '')) {
    const asNumber = /^\d+$/.test(literal) ? Number(literal) : literal;
    expect(() => resolveWriteTtl(asNumber as never)).not.toThrow();
  }
}

describe('hints', () => {
  const signed = fc
    .tuple(
      fc.constantFrom('', '-', '+', ' '),
      fc.oneof(fc.nat(), fc.double({ min: 0, max: 1e12, noNaN: true })),
      fc.constantFrom('', 's', 'h', 'x', '.5'),
    )
    .map(([sign, n, unit]) => `${sign}${String(n)}${unit}`);
  const inputs = fc.oneof(
    signed,
    fc.string({ unit: fc.constantFrom(...'PTWDHMSpt0123456789.,-+ smhdyſ'.split('')), maxLength: 12 }),
    fc.double(),
    fc.bigInt(),
    fc.dictionary(fc.constantFrom('days', 'hours', 'minutes', 'seconds', 'weeks'), fc.double()),
  );

  test('every literal a hint suggests is itself accepted (as a duration or a per-write value)', () => {
    fc.assert(
      fc.property(inputs, (value) => {
        const error = thrown(() => parseDuration(value));
        if (error === undefined) return;
        expect(error).toBeInstanceOf(TtlError);
        expectHintLiteralsAccepted((error as TtlError).hint);
      }),
      { numRuns: 3000 },
    );
  });

  test.each(['+60', '-60', '1.5', '0', '0.0', '-1h', 99999999999n, 0n, -5n])(
    '%p: its hint suggests nothing refused',
    (value) => {
      const hint = (thrown(() => parseDuration(value)) as TtlError).hint ?? '';
      expectHintLiteralsAccepted(hint);
    },
  );
});
