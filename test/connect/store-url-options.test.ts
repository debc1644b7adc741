/**
 * Every store's URL opener checks every option of its URL with the one shared parser: an unknown
 * option, a repeated one or a value an option does not take is a usage error (STORE_BAD_URL, exit
 * 2) naming the store, the options the URL takes and the closest match; a relational server URL
 * without a database is refused with what to add. No message repeats a password.
 */
import { exitCodeFor, EXIT_USAGE } from '../../src/cli/exit-codes';
import type { UrlOpener } from '../../src/providers/connection-target';
import { DESCRIPTORS } from '../../src/providers/registry';
import { openerFor } from '../../src/providers/url-openers';

interface Refusal {
  readonly code?: string;
  readonly store?: string;
  readonly message: string;
  readonly detail: string;
  readonly hint?: string;
}

/** The refusal of opening `url`, which must come before any connection is tried. */
async function refusal(url: string): Promise<Refusal> {
  const open: UrlOpener = openerFor(url);
  const saved = { endpoint: process.env['COSMOS_ENDPOINT'], key: process.env['COSMOS_KEY'] };
  process.env['COSMOS_ENDPOINT'] = 'https://127.0.0.1:1/';
  process.env['COSMOS_KEY'] = 'cosmos-KEY-secret';
  try {
    const opened = await open(url).catch((error: unknown) => error as Error);
    if (!(opened instanceof Error)) {
      await opened.dispose();
      throw new Error(`${url} was opened, not refused`);
    }
    expect(exitCodeFor(opened)).toBe(EXIT_USAGE);
    return opened as unknown as Refusal;
  } finally {
    for (const [name, value] of [
      ['COSMOS_ENDPOINT', saved.endpoint],
      ['COSMOS_KEY', saved.key],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Per store: a URL with a mistyped option, the store's name, the option it meant and another it knows. */
const TYPOS: ReadonlyArray<readonly [url: string, store: string, meant: string, known: string]> = [
  ['sqlite:./app.db?tll=emulate', 'relational', 'ttl', 'ttl=ignore|emulate|reject'],
  ['postgres://app:pw-SECRET@127.0.0.1:1/app?sslmod=require', 'relational', 'sslmode', 'application_name'],
  ['mysql://app:pw-SECRET@127.0.0.1:1/app?tll=emulate', 'relational', 'ttl', 'charset'],
  ['mariadb://app:pw-SECRET@127.0.0.1:1/app?chrset=utf8mb4', 'relational', 'charset', 'ttl'],
  ['redis://:pw-SECRET@127.0.0.1:1/0?prefx=app:', 'redis', 'prefix', 'prefix'],
  ['rediss://127.0.0.1:1/0?Prefix=app:', 'redis', 'prefix', 'prefix'],
  ['mongodb://app:pw-SECRET@127.0.0.1:1/app?hideExpird=true', 'mongodb', 'hideExpired', 'replicaSet'],
  ['mongodb+srv://app:pw-SECRET@cluster.example.net/app?replicaSett=rs0', 'mongodb', 'replicaSet', 'hideExpired'],
  ['cassandra://app:pw-SECRET@127.0.0.1:1/ks?dcc=dc1', 'cassandra', 'dc', 'dc'],
  ['cosmos:app?selfSinged=true', 'cosmos', 'selfSigned', 'selfSigned=true|false|1|0'],
];

describe('an unknown URL option is refused with the closest match, on every store', () => {
  test.each(TYPOS)('%s', async (url, store, meant, known) => {
    const error = await refusal(url);
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store });
    expect(error.message).toContain(`(did you mean ${meant}?)`);
    expect(error.hint).toContain(known);
    expect(`${error.message} ${error.hint ?? ''}`).not.toMatch(/pw-SECRET|cosmos-KEY-secret/);
  });

  test('an option nothing is close to is refused without a guess, listing what the URL takes', async () => {
    const error = await refusal('sqlite:./app.db?ttl=emulate&foo=bar');
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store: 'relational' });
    expect(error.detail).toBe("the sqlite: URL has an unknown option 'foo'");
    expect(error.hint).toBe('the sqlite: URL takes ttl=ignore|emulate|reject');
  });

  test('every store with a URL opener is in the table above', () => {
    expect(new Set(TYPOS.map(([, store]) => store))).toEqual(new Set(DESCRIPTORS.map((d) => d.name)));
  });
});

describe('a repeated option and a value an option does not take are refused too', () => {
  test.each([
    ['sqlite:./app.db?ttl=emulate&ttl=ignore', 'relational', 'gives the option ttl twice'],
    ['redis://127.0.0.1:1/0?prefix=a:&prefix=b:', 'redis', 'gives the option prefix twice'],
    ['mongodb://127.0.0.1:1/app?hideExpired=true&hideexpired=false', 'mongodb', 'gives the option hideExpired twice'],
    ['cassandra://127.0.0.1:1/ks?dc=a&dc=b', 'cassandra', 'gives the option dc twice'],
    ['cosmos:app?selfSigned=true&selfSigned=true', 'cosmos', 'gives the option selfSigned twice'],
    ['postgres://u@127.0.0.1:1/app?sslmode=require&sslmode=disable', 'relational', 'gives the option sslmode twice'],
  ])('%s', async (url, store, said) => {
    const error = await refusal(url);
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store });
    expect(error.message).toContain(said);
  });

  test.each([
    ['sqlite:./app.db?ttl=emulat', 'relational', "sets ttl to 'emulat'", 'did you mean ttl=emulate?'],
    ['postgres://u@127.0.0.1:1/app?ttl=', 'relational', 'leaves ttl empty', 'not one of ignore, emulate, reject'],
    ['mongodb://127.0.0.1:1/app?hideExpired=yes', 'mongodb', "sets hideExpired to 'yes'", 'not one of true, false'],
    ['cosmos:app?selfSigned=ture', 'cosmos', "sets selfSigned to 'ture'", 'did you mean selfSigned=true?'],
  ])('%s', async (url, store, said, more) => {
    const error = await refusal(url);
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store });
    expect(error.message).toContain(said);
    expect(error.message).toContain(more);
  });

  test("MongoDB reads its driver's options in any case, and one it may repeat is passed on", async () => {
    const { parseMongoUrl } = await import('../../src/providers/mongodb/from-url');
    expect(
      parseMongoUrl('mongodb://h/app?replicaset=rs0&readPreferenceTags=dc:a&readPreferenceTags=&hideExpired=1'),
    ).toMatchObject({
      driverUrl: 'mongodb://h/app?replicaset=rs0&readPreferenceTags=dc:a&readPreferenceTags=',
      hideExpired: true,
    });
  });
});

describe('a relational server URL without a database is refused with what to add', () => {
  test.each([
    ['postgres://user@127.0.0.1:5432', 'postgres:'],
    ['postgresql://user:pw-SECRET@127.0.0.1:5432/', 'postgresql:'],
    ['postgres://user@127.0.0.1:5432?ttl=emulate', 'postgres:'],
    ['mysql://user:pw-SECRET@127.0.0.1:3306', 'mysql:'],
    ['mariadb://user@127.0.0.1:3306/?ttl=emulate', 'mariadb:'],
  ])('%s', async (url, scheme) => {
    const error = await refusal(url);
    expect(error).toMatchObject({ code: 'STORE_BAD_URL', store: 'relational' });
    expect(error.message).toContain(`the ${scheme} URL names no database`);
    expect(error.hint).toContain(`add the database after the host: ${scheme}//user:password@host:port/database`);
    expect(`${error.message} ${error.hint ?? ''}`).not.toContain('pw-SECRET');
  });
});
