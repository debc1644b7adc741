/** RelationalStore options, describe() and driver detection: no server needed. */
import knex from 'knex';
import type { Knex } from 'knex';
import { connect, LifespanError, StoreError } from '../../src';
import { model } from '../../examples/models';
import { RelationalStore } from '../../src/providers/relational';

describe('RelationalStore options', () => {
  const sqlite = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  afterAll(() => sqlite.destroy());

  test('bad options are refused, each named', () => {
    const bad = (options: unknown) => () => new RelationalStore(options as never);
    expect(bad({})).toThrow(expect.objectContaining({ code: 'STORE_BAD_OPTION' }));
    expect(bad({ knex: {} })).toThrow(LifespanError);
    expect(bad({ knex: sqlite, ttl: 'expire' })).toThrow(
      expect.objectContaining({ message: expect.stringContaining('"expire"') }),
    );
    expect(bad({ knex: sqlite, clock: 5 })).toThrow(expect.objectContaining({ code: 'STORE_BAD_OPTION' }));
    expect(bad({ knex: sqlite, logger: {} })).toThrow(expect.objectContaining({ code: 'STORE_BAD_OPTION' }));
    expect(new RelationalStore({ knex: sqlite }).ttl).toBe('ignore');
  });

  test('describe() names the target and masks the password', async () => {
    const pg = knex({ client: 'pg', connection: 'postgres://app:s3cret@db.example:5432/shop' });
    const my = knex({
      client: 'mysql2',
      connection: { host: 'h', port: 3306, user: 'u', password: 'pw', database: 'd' },
    });
    try {
      expect(new RelationalStore({ knex: sqlite, ttl: 'emulate' }).describe()).toBe(
        'better-sqlite3 :memory: (ttl: emulate)',
      );
      const pgText = new RelationalStore({ knex: pg }).describe();
      expect(pgText).toContain('db.example:5432/shop');
      expect(pgText).not.toContain('s3cret');
      expect(new RelationalStore({ knex: my }).describe()).toBe('mysql2 u@h:3306/d (ttl: ignore)');
    } finally {
      await pg.destroy();
      await my.destroy();
    }
  });

  test('a knex client lifespan does not drive is refused at connect', async () => {
    const oracle = Object.assign(() => undefined, { client: { driverName: 'oracledb', dialect: 'oracle' } });
    const error = await connect(model, new RelationalStore({ knex: oracle as unknown as Knex })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'RELATIONAL_UNSUPPORTED_DRIVER' });
  });

  test('a clock that returns no valid Date is named when used', async () => {
    const db = await connect(
      model,
      new RelationalStore({
        knex: sqlite,
        ttl: 'emulate',
        clock: () => new Date('x'),
        logger: { warn: () => undefined },
      }),
    );
    await db.ensureCollections();
    const { Session } = await import('../../examples/models');
    await expect(db.repository(Session).get('s')).rejects.toMatchObject({ code: 'RELATIONAL_BAD_CLOCK' });
    await db.close();
    expect(() => db.repository(Session)).toThrow(expect.objectContaining({ code: 'SESSION_CLOSED' }));
  });
});
