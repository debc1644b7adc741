import fc from 'fast-check';
import { parseDuration, formatDuration, TtlError, MAX_TTL_SECONDS } from '../../src';
import { resolveWriteTtl } from '../../src/model/per-write-ttl';

describe('parseDuration accepts', () => {
  test.each([
    [3600, 3600],
    [1, 1],
    [MAX_TTL_SECONDS, MAX_TTL_SECONDS],
    ['90s', 90],
    ['15m', 900],
    ['1h', 3600],
    ['7d', 604800],
    [' 1h ', 3600],
    ['PT1H', 3600],
    ['pt1h', 3600],
    ['P1D', 86400],
    ['P1DT2H30M', 95400],
    ['P2W', 1209600],
    ['PT0.5H', 1800],
    [{ hours: 1 }, 3600],
    [{ days: 1, hours: 2, minutes: 3, seconds: 4 }, 93784],
    [{ minutes: 0.5 }, 30],
  ])('%p → %p s', (input, seconds) => {
    expect(parseDuration(input)).toBe(seconds);
  });
});

describe('parseDuration rejects with a TtlError naming the value', () => {
  test.each([
    [0, 'TTL_NOT_POSITIVE'],
    [-5, 'TTL_NOT_POSITIVE'],
    [1.5, 'TTL_FRACTIONAL'],
    [NaN, 'TTL_NOT_A_NUMBER'],
    [Infinity, 'TTL_NOT_FINITE'],
    [-Infinity, 'TTL_NOT_FINITE'],
    [MAX_TTL_SECONDS + 1, 'TTL_TOO_LARGE'],
    ['', 'TTL_EMPTY'],
    ['   ', 'TTL_EMPTY'],
    ['0s', 'TTL_NOT_POSITIVE'],
    ['1y', 'TTL_CALENDAR_UNIT'],
    ['1w', 'TTL_UNKNOWN_FORMAT'],
    ['1.5s', 'TTL_FRACTIONAL'],
    ['-1h', 'TTL_NOT_POSITIVE'],
    ['1 hour', 'TTL_UNKNOWN_FORMAT'],
    ['3600', 'TTL_NO_UNIT'],
    ['abc', 'TTL_UNKNOWN_FORMAT'],
    ['PT', 'TTL_UNKNOWN_FORMAT'],
    ['P1Y', 'TTL_CALENDAR_UNIT'],
    ['P1M', 'TTL_CALENDAR_UNIT'],
    ['-PT1H', 'TTL_NOT_POSITIVE'],
    ['PT0S', 'TTL_NOT_POSITIVE'],
    ['PT1.5S', 'TTL_FRACTIONAL'],
    ['P100000D', 'TTL_TOO_LARGE'],
    ['99999999999d', 'TTL_TOO_LARGE'],
    [{}, 'TTL_EMPTY'],
    [{ hours: -1 }, 'TTL_INVALID_PART'],
    [{ hours: NaN }, 'TTL_INVALID_PART'],
    [{ hours: '1' }, 'TTL_INVALID_PART'],
    [{ weeks: 1 }, 'TTL_UNKNOWN_UNIT'],
    [{ seconds: 0.5 }, 'TTL_FRACTIONAL'],
    [{ hours: 0 }, 'TTL_NOT_POSITIVE'],
    [null, 'TTL_INVALID_TYPE'],
    [undefined, 'TTL_INVALID_TYPE'],
    [true, 'TTL_INVALID_TYPE'],
    [[3600], 'TTL_INVALID_TYPE'],
    [BigInt(5), 'TTL_INVALID_TYPE'],
  ])('%p → %s', (input, code) => {
    let caught: unknown;
    try {
      parseDuration(input);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TtlError);
    const error = caught as TtlError;
    expect(error.code).toBe(code);
    expect(error.value).toBe(input);
    expect(error.message).toMatch(/^TTL /);
    expect(error.hint).toBeTruthy();
  });

  test('the message names the value', () => {
    expect(() => parseDuration('15x')).toThrow(/TTL "15x" is not a duration/);
    expect(() => parseDuration(-3)).toThrow(/TTL -3 is negative/);
  });
});

describe('properties', () => {
  test('any input either parses to a whole positive in-range number of seconds or throws a TtlError', () => {
    const input = fc.oneof(
      fc.string(),
      fc.double(),
      fc.integer(),
      fc.constantFrom('1h', 'PT1H', 'P1D', '0s', '90m', 'P1Y', 'PT1.5S'),
      fc.tuple(fc.nat(100000), fc.constantFrom('s', 'm', 'h', 'd', 'x', '')).map(([n, u]) => `${n}${u}`),
      fc.record({ hours: fc.double(), minutes: fc.integer() }, { requiredKeys: [] }),
      fc.anything(),
    );
    fc.assert(
      fc.property(input, (value) => {
        try {
          const seconds = parseDuration(value);
          return Number.isInteger(seconds) && seconds >= 1 && seconds <= MAX_TTL_SECONDS;
        } catch (error) {
          return error instanceof TtlError && error.message.length > 0;
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('formatDuration round-trips through parseDuration', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_TTL_SECONDS }),
        (seconds) => parseDuration(formatDuration(seconds)) === seconds,
      ),
    );
  });
});

describe('per-write values', () => {
  test.each([
    [undefined, { kind: 'default' }],
    ['default', { kind: 'default' }],
    ['never', { kind: 'never' }],
    ['keep', { kind: 'keep' }],
    [60, { kind: 'duration', seconds: 60 }],
    ['2m', { kind: 'duration', seconds: 120 }],
    [{ extend: '1h' }, { kind: 'extend', seconds: 3600 }],
  ])('%p', (value, resolved) => {
    expect(resolveWriteTtl(value as never)).toEqual(resolved);
  });

  test.each([[0], ['forever'], [{ extend: 0 }], [{ extend: '1h', hours: 1 }], [-1]])('rejects %p', (value) => {
    expect(() => resolveWriteTtl(value as never)).toThrow(TtlError);
  });
});
