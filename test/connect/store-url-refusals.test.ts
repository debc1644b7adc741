/**
 * What the one store-URL parser refuses: a password holding `?` is refused without
 * repeating any part of it; every mistake a URL can show is found before anything connects, as
 * STORE_BAD_URL (exit 2), not as a raw driver error (exit 70) or a leaked client; a connection
 * failure is always typed; options the drivers read are taken and their fixed values checked.
 */
import { exitCodeFor, EXIT_USAGE } from '../../src/cli/exit-codes';
import { closestName } from '../../src/core/closest-name';
import { ERROR_CODE_TABLE } from '../../src/error-codes';
import { StoreError } from '../../src/errors';
import { parseMongoUrl } from '../../src/providers/mongodb/from-url';
import { openRedisUrl } from '../../src/providers/redis/from-url';
import { openerFor } from '../../src/providers/url-openers';

interface Refusal {
  readonly code?: string;
  readonly store?: string;
  readonly message: string;
  readonly hint?: string;
}

/** The refusal of opening `url`, which must come before any connection is tried (every port is 1). */
async function refusal(url: string): Promise<Refusal> {
  const opened = await openerFor(url)(url).catch((error: unknown) => error as Error);
  if (!(opened instanceof Error)) {
    await opened.dispose();
    throw new Error(`${url} was opened, not refused`);
  }
  expect({ code: (opened as Refusal).code, exit: exitCodeFor(opened) }).toEqual({
    code: 'STORE_BAD_URL',
    exit: EXIT_USAGE,
  });
  return opened as unknown as Refusal;
}

const everything = (r: Refusal) => `${r.message} ${r.hint ?? ''} ${JSON.stringify(r)}`;

describe('a password holding ? is refused, and no part of it is repeated', () => {
  test.each([
    'postgres://u:Tr0ub?Secr3tPart=1@127.0.0.1:1/db',
    'mysql://u:Tr0ub?Secr3tPart=1@127.0.0.1:1/db',
    'redis://u:Tr0ub?Secr3tPart=1@127.0.0.1:1/0',
    'cassandra://u:Tr0ub?Secr3tPart=1@127.0.0.1:1/ks',
    'mongodb://u:Tr0ub?Secr3tPart=1@127.0.0.1:1/app',
    'postgres://u:Tr0ub?a&Secr3tPart@127.0.0.1:1/db',
  ])('%s', async (url) => {
    const error = await refusal(url);
    expect(everything(error)).not.toMatch(/Tr0ub|Secr3t/);
    expect(error.hint).toContain('%3F');
  });
});

describe('what a URL shows is checked before anything is made or connected', () => {
  test.each([
    ['postgres://u:pw@127.0.0.1:1/caf%E9', 'database'],
    ['postgres://u:pw@127.0.0.1:1/db?sslrootcert=/nope/ca.pem', 'sslrootcert'],
    ['mysql://u:pw-SECRET@127.0.0.1:1/db?ssl=maybe', 'ssl'],
    ['redis://127.0.0.1:1/0?prefix=%7Bapp%7D:', 'prefix'],
    ['mongodb://127.0.0.1:1/a.b', 'database'],
    ['postgres://u@127.0.0.1:1/db?ssl=false', 'ssl'],
    ['postgres://u@127.0.0.1:1/db?sslmode=disabel', 'did you mean sslmode=disable?'],
    ['postgres://u@127.0.0.1:1/db?sslnegotiation=x', 'sslnegotiation'],
    ['cassandra://127.0.0.1:1/ks?dc=', 'leaves dc empty'],
    ['redis://127.0.0.1:1/0?prefix=', 'leaves prefix empty'],
    ['mysql://u@127.0.0.1:1/db?debug=true', 'debug'],
    ['mysql://u@127.0.0.1:1/db?trace=true', 'trace'],
  ])('%s', async (url, named) => {
    const error = await refusal(url);
    expect(error.message).toContain(named);
    expect(everything(error)).not.toContain('pw-SECRET');
  });

  test('the mysql2 SSL profile code is gone: a bad option value has one code', () => {
    expect(Object.keys(ERROR_CODE_TABLE)).not.toContain('STORE_URL_OPTION');
  });
});

describe('options the drivers read are taken', () => {
  test.each([
    'postgres://u:pw@127.0.0.1:1/db?connectionTimeoutMillis=500&keepAlive=true&enableChannelBinding=false',
    'mysql://u:pw@127.0.0.1:1/db?gracefulEnd=true&passwordSha1=abc',
    'postgres://user:pw@/db?host=/var/run/postgresql',
    'postgres://u@127.0.0.1:1/db?ssl=0&sslmode=no-verify&sslnegotiation=postgres',
  ])('%s opens (no connection is made yet)', async (url) => {
    const opened = await openerFor(url)(url);
    await opened.dispose();
  });

  test('MongoDB: any driver option passes on; the driver checks names it does not know', () => {
    expect(
      parseMongoUrl(
        'mongodb://h/app?autoSelectFamily=true&autoSelectFamilyAttemptTimeout=5&enableUtf8Validation=false&minHeartbeatFrequencyMS=5&j=true&wtimeout=5',
      ).driverUrl,
    ).toContain('wtimeout=5');
  });

  test('only options declared secret are secrets: insecureAuth=true does not make every "true" a secret', async () => {
    const url = 'mysql://u:pw@127.0.0.1:1/db?insecureAuth=true&password1=Secr3tOne';
    const opened = await openerFor(url)(url);
    await opened.dispose();
    expect(opened.secrets).toContain('Secr3tOne');
    expect(opened.secrets).not.toContain('true');
  });
});

describe('a failed connection is always a typed StoreError', () => {
  test('Redis on a port nobody listens on', async () => {
    const error = await openRedisUrl('redis://127.0.0.1:1/0').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).store).toBe('redis');
  });
});

describe('closestName', () => {
  test('makes no guess for a name all of whose letters would change', () => {
    expect(closestName('x', ['w', 'ttl'])).toBeUndefined();
    expect(closestName('ab', ['w'])).toBeUndefined();
    expect(closestName('prefx', ['prefix'])).toBe('prefix');
    expect(closestName('tll', ['ttl'])).toBe('ttl');
  });
});
