/** The CLI's relational URLs: a URL that does not parse is a LifespanError that never repeats the password. */
import { LifespanError } from '../../src';
import { openRelationalUrl } from '../../src/providers/relational/from-url';

describe('openRelationalUrl', () => {
  test.each([
    ['postgres://user:s3cret@[bad/db', 'postgres:'],
    ['postgresql://user:s3cret@/db', 'postgresql:'],
    ['mysql://user:s3cret%ZZ@localhost/db', 'mysql:'],
    ['mariadb://user:s3cret@host:notaport/db', 'mariadb:'],
  ])('%s is refused as an invalid URL, without the password', async (url, scheme) => {
    const error = await openRelationalUrl(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LifespanError);
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store: 'relational' });
    expect((error as Error).message).toContain(scheme);
    expect((error as Error).message).not.toContain('s3cret');
  });

  test('scheme, ttl option and sqlite file are checked with their own codes', async () => {
    await expect(openRelationalUrl('http://x')).rejects.toMatchObject({ code: 'STORE_BAD_URL' });
    await expect(openRelationalUrl('sqlite::memory:?ttl=bogus')).rejects.toMatchObject({ code: 'STORE_BAD_URL' });
    await expect(openRelationalUrl('sqlite:')).rejects.toMatchObject({ code: 'STORE_BAD_URL' });
  });

  test('a valid server URL opens (no connection is made yet) and lists its password as a secret', async () => {
    const opened = await openRelationalUrl('postgres://user:p%40ss@localhost:1/db?ttl=emulate');
    try {
      expect(opened.secrets).toEqual(['p@ss', 'p%40ss']);
      expect(opened.store.describe()).toContain('ttl: emulate');
      expect(opened.store.describe()).not.toContain('p@ss');
    } finally {
      await opened.dispose();
    }
  });
});
