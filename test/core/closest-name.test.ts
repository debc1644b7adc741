/** The "did you mean …?" of usage errors: a typo finds the name it meant, another word finds nothing. */
import { closestName } from '../../src/core/closest-name';

describe('closestName', () => {
  test('finds a typo (swap, missing, extra or changed letter, case) and nothing for another word', () => {
    expect(closestName('tll', ['ttl'])).toBe('ttl');
    expect(closestName('prefx', ['prefix'])).toBe('prefix');
    expect(closestName('sslmdoe', ['ssl', 'sslmode', 'sslcert'])).toBe('sslmode');
    expect(closestName('HIDEEXPIRED', ['hideExpired'])).toBe('hideExpired');
    expect(closestName('foo', ['ttl'])).toBeUndefined();
    expect(closestName('ttl', [])).toBeUndefined();
  });
});
