/**
 * One condition has one code on every store, and the error's `store` says which store raised it:
 * a bad constructor option is STORE_BAD_OPTION, a bad URL STORE_BAD_URL, a failed driver call
 * STORE_OPERATION_FAILED, a failed connect STORE_CONNECT_FAILED. The table keeps no store's own
 * code for them, and the ErrorCodes names are the codes they stand for.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ERROR_CODE_TABLE, ErrorCodes } from '../../src/error-codes';
import { CassandraStore } from '../../src/providers/cassandra/store';
import { CosmosStore } from '../../src/providers/cosmos/store';
import { MongoStore } from '../../src/providers/mongodb/store';
import { RedisStore } from '../../src/providers/redis/store';
import { RelationalStore } from '../../src/providers/relational/store';
import { DESCRIPTORS } from '../../src/providers/registry';
import { PUBLISHED_CODES } from './published-codes';

const cassandraClient = { execute: () => undefined, batch: () => undefined };
const cosmosDatabase = { id: 'app', container: () => undefined };
const mongoDb = { command: () => undefined, collection: () => undefined };
const redisClient = { sendCommand: (_args: unknown) => undefined };
const knex = Object.assign(() => undefined, { client: {} });

/** Per store: a constructor call without its driver object, and one with a bad second option. */
const BAD_OPTIONS: ReadonlyArray<readonly [store: string, missing: () => unknown, wrong: () => unknown]> = [
  [
    'cassandra',
    () => new CassandraStore({} as never),
    () => new CassandraStore({ client: cassandraClient, keyspace: 'ks', now: 5 } as never),
  ],
  [
    'cosmos',
    () => new CosmosStore({} as never),
    () => new CosmosStore({ database: cosmosDatabase, hideExpired: 'yes' } as never),
  ],
  ['mongodb', () => new MongoStore({} as never), () => new MongoStore({ db: mongoDb, hideExpired: 'yes' } as never)],
  [
    'redis',
    () => new RedisStore({} as never),
    () => new RedisStore({ client: redisClient, prefix: '{app}:' } as never),
  ],
  ['relational', () => new RelationalStore({} as never), () => new RelationalStore({ knex, ttl: 'bogus' } as never)],
];

describe('a bad store option is STORE_BAD_OPTION, carrying its store', () => {
  test.each(BAD_OPTIONS)('%s', (store, missing, wrong) => {
    for (const make of [missing, wrong]) {
      expect(make).toThrow(
        expect.objectContaining({ name: 'LifespanError', code: ErrorCodes.STORE_BAD_OPTION, store }),
      );
    }
  });

  test('every store is in the table above', () => {
    expect(BAD_OPTIONS.map(([store]) => store).sort()).toEqual(DESCRIPTORS.map((d) => d.name).sort());
  });
});

describe('the code table has one code per condition', () => {
  const STORE_PREFIX = /^(CASSANDRA|COSMOS|MONGO|MONGODB|REDIS|RELATIONAL)_/;
  /** The conditions every store has alike, by the endings their old per-store codes had. */
  const SHARED_CONDITION =
    /_(BAD_OPTIONS?|NO_CLIENT|NO_DB|URL|BAD_URL|URL_[A-Z_]+|QUERY_FAILED|REQUEST_FAILED|OPERATION_FAILED|COMMAND_FAILED|INSPECT_FAILED|CONNECT_FAILED|DUPLICATE_KEY)$/;

  test('no store has a code of its own for a condition every store shares', () => {
    const own = Object.keys(ERROR_CODE_TABLE).filter((code) => STORE_PREFIX.test(code) && SHARED_CONDITION.test(code));
    expect(own).toEqual([]);
  });

  test('each shared condition is one STORE_ code of the family and exit its callers expect', () => {
    expect(ERROR_CODE_TABLE.STORE_BAD_OPTION).toEqual({ family: 'LifespanError', exit: 'model' });
    expect(ERROR_CODE_TABLE.STORE_BAD_URL).toEqual({ family: 'LifespanError', exit: 'usage' });
    expect(ERROR_CODE_TABLE.STORE_OPERATION_FAILED).toEqual({ family: 'StoreError', exit: 'store' });
    expect(ERROR_CODE_TABLE.STORE_CONNECT_FAILED).toEqual({ family: 'StoreError', exit: 'store' });
  });

  test('every ErrorCodes name is the code it stands for', () => {
    const disagreeing = Object.entries(ErrorCodes).filter(([name, code]) => name !== code);
    expect(disagreeing).toEqual([]);
  });
});

describe('CHANGELOG.md maps every old code to its new one', () => {
  const changelog = fs.readFileSync(path.resolve(__dirname, '..', '..', 'CHANGELOG.md'), 'utf8');
  const renames = [...changelog.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| `([A-Z][A-Z0-9_]+)` \|$/gm)].map(
    ([, from, to]) => ({
      from: from as string,
      to: to as string,
    }),
  );

  test('each old code is gone from the table and its new code is in it', () => {
    expect(renames.length).toBeGreaterThanOrEqual(30);
    expect(renames.filter((r) => r.from in ERROR_CODE_TABLE).map((r) => r.from)).toEqual([]);
    expect(renames.filter((r) => !(r.to in ERROR_CODE_TABLE)).map((r) => r.to)).toEqual([]);
  });

  test('every published code no longer in the table is an old code of the CHANGELOG', () => {
    const gone = PUBLISHED_CODES.filter((code) => !(code in ERROR_CODE_TABLE));
    expect(gone.length).toBeGreaterThan(0);
    // A code no condition raises any more is listed as removed, with what happens instead.
    const removed = [...changelog.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \| removed: .+\|$/gm)].map(([, code]) => code);
    expect(gone.filter((code) => !renames.some((r) => r.from === code) && !removed.includes(code))).toEqual([]);
  });
});
