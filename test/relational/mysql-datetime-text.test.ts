import fc from 'fast-check';
import { MYSQL_FAMILY } from '../../src/providers/relational/families/mysql/family';

/** What reads did before DATETIME text was read by its fields: Date's own string parser. */
const byStringParser = (text: string) => new Date(`${text.replace(' ', 'T')}Z`);

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

  test.each(['2026-12-01 10:20:30', '2026-12-01 10:20:30.5', '2026-12-01 10:20:30.123456', '0000-00-00 00:00:00'])(
    '%s reads as the string parser reads it',
    (text) => {
      expect(String(MYSQL_FAMILY.parseInstantText(text).getTime())).toBe(String(byStringParser(text).getTime()));
    },
  );
});
