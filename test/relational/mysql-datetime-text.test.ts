import fc from 'fast-check';
import { MYSQL_FAMILY } from '../../src/providers/relational/families/mysql/family';

/** What reads did before DATETIME text was read by its fields: Date's own string parser. */
const byStringParser = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

/** The reading by regular expression the character-code reading replaced: the same Date for every text. */
const DATETIME_TEXT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?$/;
function byRegExp(text: string): Date {
  const m = DATETIME_TEXT.exec(text);
  if (!m || m[2] === '00' || m[3] === '00') return byStringParser(text);
  const ms = m[7] ? Number(m[7].padEnd(3, '0').slice(0, 3)) : 0;
  const date = new Date(
    Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]), ms),
  );
  if (Number(m[1]) < 100) date.setUTCFullYear(Number(m[1]));
  return date;
}

/** Texts near the DATETIME shape: digits and its separators, a few other characters, any length up to 28. */
const nearDatetime = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789-: .T+/a\u0660'.split('')), maxLength: 28 }),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 0, max: 99 }),
      fc.stringMatching(/^(\.\d{0,7})?$/),
    )
    .map(([y, mo, d, h, mi, s, fraction]) => {
      const p2 = (n: number) => String(n).padStart(2, '0');
      return `${String(y).padStart(4, '0')}-${p2(mo)}-${p2(d)} ${p2(h)}:${p2(mi)}:${p2(s)}${fraction}`;
    }),
);

describe('MariaDB/MySQL DATETIME text (mysql2 dateStrings) is read as UTC', () => {
  test('every DATETIME(3) instant reads back as the string parser read it', () => {
    const min = Date.UTC(1000, 0, 1);
    const max = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
    fc.assert(
      fc.property(fc.integer({ min, max }), (ms) => {
        const text = MYSQL_FAMILY.encodeInstant(new Date(ms)) as string;
        expect(MYSQL_FAMILY.parseInstantText(text).getTime()).toBe(ms);
        expect(MYSQL_FAMILY.parseInstantText(text).getTime()).toBe(byStringParser(text).getTime());
      }),
      { numRuns: 2000 },
    );
  });

  test('every text reads as the regular expression read it (out-of-range fields roll over alike)', () => {
    fc.assert(
      fc.property(nearDatetime, (text) => {
        expect(String(MYSQL_FAMILY.parseInstantText(text).getTime())).toBe(String(byRegExp(text).getTime()));
      }),
      { numRuns: 5000 },
    );
  });

  test.each([
    '2026-12-01 10:20:30',
    '2026-12-01 10:20:30.5',
    '2026-12-01 10:20:30.123456',
    '0000-00-00 00:00:00',
    '2026-00-01 10:20:30',
    '2026-12-00 10:20:30',
    '0099-12-01 10:20:30.1',
    '2026-12-01 10:20:30.',
    '2026-12-01 10:20:30.1234567',
    '2026-12-01T10:20:30',
    '',
  ])('%s reads as the string parser reads it', (text) => {
    expect(String(MYSQL_FAMILY.parseInstantText(text).getTime())).toBe(String(byStringParser(text).getTime()));
  });
});
