/**
 * A connection failure reaches the library caller of connect() / plan() as a StoreError with a
 * stable code, not as the raw driver error.
 */
import 'reflect-metadata';
import knexFactory, { type Knex } from 'knex';
import { connect, Entity, Key, ModelBuilder, StoreError, TimeToLive } from '../../src';
import { RelationalStore } from '../../src/providers/relational';
import { connectionError } from '../../src/providers/connection-errors';
import { connectionErrorsFor } from '../../src/providers/registry';
import { describeStore } from '../harness/stores';

@Entity('sessions')
@TimeToLive(3600)
class Session {
  @Key() id = '';
}
const model = new ModelBuilder().entity(Session).build();

async function planOn(config: Knex.Config): Promise<unknown> {
  // knex's own log of the failed attempt would only repeat, with a stack, what the test asserts.
  const quiet = () => undefined;
  const knex = knexFactory({ ...config, log: { warn: quiet, error: quiet, deprecate: quiet, debug: quiet } });
  try {
    const db = await connect(model, new RelationalStore({ knex, ttl: 'emulate' }));
    return await db.plan();
  } catch (error) {
    return error;
  } finally {
    await knex.destroy();
  }
}

describeStore('postgres', 'connection failures through the library (PostgreSQL)', () => {
  test('port closed: STORE_UNREACHABLE', async () => {
    const error = await planOn({ client: 'pg', connection: 'postgres://postgres@127.0.0.1:1/app' });
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'STORE_UNREACHABLE', store: 'relational' });
  });

  test('database missing: STORE_DATABASE_MISSING', async () => {
    const url = new URL(process.env.PG_URL ?? '');
    url.pathname = '/no_such_database_xyz';
    const error = await planOn({ client: 'pg', connection: url.toString() });
    expect(error).toMatchObject({
      code: 'STORE_DATABASE_MISSING',
      hint: expect.stringContaining('create the database'),
    });
  });
});

describeStore('mariadb', 'connection failures through the library (MariaDB)', () => {
  test('wrong password: STORE_AUTH_FAILED', async () => {
    const url = new URL(process.env.MYSQL_URL ?? '');
    url.username = 'root';
    url.password = 'wrong-password';
    const error = await planOn({ client: 'mysql2', connection: url.toString() });
    expect(error).toMatchObject({ code: 'STORE_AUTH_FAILED' });
  });
});

describeStore('sqlite', 'connection failures through the library (SQLite)', () => {
  test('folder missing: STORE_SQLITE_FOLDER_MISSING', async () => {
    const error = await planOn({
      client: 'better-sqlite3',
      connection: { filename: '/no/such/folder/app.db' },
      useNullAsDefault: true,
    });
    expect(error).toMatchObject({ code: 'STORE_SQLITE_FOLDER_MISSING' });
  });
});

test('a driver package that is not installed is named', () => {
  const missing = Object.assign(new Error("Knex: run\n$ npm install pg --save\nCannot find module 'pg'"), {
    code: 'MODULE_NOT_FOUND',
  });
  expect(connectionError(missing, 'relational', 'postgres://db/app', connectionErrorsFor('relational'))).toMatchObject({
    code: 'STORE_DRIVER_MISSING',
    message: expect.stringContaining("'pg'"),
    hint: 'npm install pg',
  });
  const scoped = new Error("Cannot find module '@azure/cosmos/dist/index.js'");
  expect(connectionError(scoped, 'cosmos', 'x', connectionErrorsFor('cosmos'))?.message).toContain("'@azure/cosmos'");
});

test('Cassandra: a wrong password inside NoHostAvailableError is an authentication failure (review 12 item 8)', () => {
  const { errors } = require('cassandra-driver') as typeof import('cassandra-driver');
  const refused = new errors.AuthenticationError('Provided username app and/or password are incorrect');
  const wrapped = new errors.NoHostAvailableError({ '127.0.0.1:9042': refused });
  expect(
    connectionError(wrapped, 'cassandra', 'cassandra://127.0.0.1:9042/app', connectionErrorsFor('cassandra')),
  ).toMatchObject({
    code: 'STORE_AUTH_FAILED',
  });
  const unreachable = new errors.NoHostAvailableError({
    '127.0.0.1:1': Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  });
  expect(connectionError(unreachable, 'cassandra', 'x', connectionErrorsFor('cassandra'))).toMatchObject({
    code: 'STORE_UNREACHABLE',
  });
});

test("a database that does not exist: Redis's hint is its own, PostgreSQL's and MySQL's name no other store", () => {
  const outOfRange = new Error('ERR DB index is out of range');
  expect(connectionError(outOfRange, 'redis', 'redis://127.0.0.1:6379/99', connectionErrorsFor('redis'))).toMatchObject(
    {
      code: 'STORE_DATABASE_MISSING',
      store: 'redis',
      hint: 'check the database number in the connection URL: Redis has databases 0 up to its `databases` setting (excluded)',
    },
  );
  const pg = Object.assign(new Error('database "app" does not exist'), { code: '3D000' });
  const mysql = Object.assign(new Error("Unknown database 'app'"), { code: 'ER_BAD_DB_ERROR', errno: 1049 });
  for (const missing of [pg, mysql]) {
    expect(connectionError(missing, 'relational', 'x', connectionErrorsFor('relational'))).toMatchObject({
      code: 'STORE_DATABASE_MISSING',
      hint: 'create the database first, or check its name in the connection URL',
    });
  }
});
