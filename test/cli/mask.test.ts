import { displayUrl, SecretMasker } from '../../src/cli/mask';

test('masks passwords of URLs, raw and URL-encoded, and the secret option values an opener hands over', () => {
  const masker = new SecretMasker();
  masker.addUrl('postgres://app:p%40ss-w0rd@db:5432/app?application_name=x');
  // Option values are secrets only where the store's URL opener declares the option secret
  // (src/core/store-url.ts): it hands their values over, as the CLI does with StoreUrl.secrets.
  masker.add('abc123');
  masker.add('s3cr3t-key');
  const text = 'connect postgres://app:p%40ss-w0rd@db/app failed (p@ss-w0rd, abc123, s3cr3t-key, application x)';
  expect(masker.mask(text)).toBe('connect postgres://app:****@db/app failed (****, ****, ****, application x)');
});

test('ignores very short secrets that would mask ordinary words', () => {
  const masker = new SecretMasker();
  masker.add('a');
  masker.add('');
  masker.add(undefined);
  expect(masker.mask('a cat')).toBe('a cat');
});

test('masks the longest secret first', () => {
  const masker = new SecretMasker();
  masker.add('abcd');
  masker.add('abcdefgh');
  expect(masker.mask('x abcdefgh y abcd')).toBe('x **** y ****');
});

test('displayUrl hides the password and secret parameters', () => {
  expect(displayUrl('mysql://root:hunter22@127.0.0.1:3306/test?key=zz&ttl=emulate')).toBe(
    'mysql://root:****@127.0.0.1:3306/test?key=****&ttl=emulate',
  );
  expect(displayUrl('sqlite:./dev.db')).toBe('sqlite:./dev.db');
});

test("a password with '@' and ':' is masked whole, up to the authority's last '@' (review 12 item 2)", () => {
  const text = 'cannot reach postgres://app:p@ss:w0rd@db.internal:5432/app (and mysql://u:a@b@h/x)';
  expect(new SecretMasker().mask(text)).toBe(
    'cannot reach postgres://app:****@db.internal:5432/app (and mysql://u:****@h/x)',
  );
  expect(displayUrl('not a url postgres://app:p@ss-w0rd@db.internal:5432/app%')).not.toContain('ss-w0rd');
});

test('free text: secret query parameters and Key=…; connection strings are masked (review 12 item 14)', () => {
  const text =
    'failed: postgres://h/db?user=app&password=qs-SECRET-1&sslmode=require; ' +
    'AccountEndpoint=https://acc.documents.azure.com:443/;AccountKey=cs-SECRET-2;Server=db;Pwd=cs-SECRET-3; keyspace=app';
  const masked = new SecretMasker().mask(text);
  expect(masked).not.toMatch(/SECRET/);
  expect(masked).toContain('password=****&sslmode=require');
  expect(masked).toContain('AccountKey=****;Server=db;Pwd=****;');
  expect(masked).toContain('keyspace=app');
});

test('a masked query value ends before a closing backtick (markdown code spans stay closed)', () => {
  expect(new SecretMasker().mask('| `sqlite:x.db?password=pw1` |')).toBe('| `sqlite:x.db?password=****` |');
});

test('a masked query value leaves the colon that follows a target name', () => {
  expect(new SecretMasker().mask('sqlite:x.db?password=pw1: 0 rows')).toBe('sqlite:x.db?password=****: 0 rows');
});
