/** Golden explain reports of the relational store (review the snapshots like code). */
import type { Knex } from 'knex';
import { explain, ModelError } from '../../src';
import { model } from '../../examples/models';
import { relationalExplainer } from '../../src/providers/relational';
import { knexFor } from '../harness/relational';
import { connectRelational, describeEngines } from './support/engines';

describe('relational explain (driver-free)', () => {
  test("default ttl: 'ignore' — the seed example says the declaration is ignored", () => {
    const report = explain(model, { stores: ['relational'] });
    const session = report.entries.find((e) => e.entity === 'Session');
    expect(session).toMatchObject({
      mechanism: 'none',
      seconds: 3600,
      countsFrom: null,
      expiredVisibleUntilDeleted: true,
    });
    expect(session?.text).toMatch(
      /^sessions: no native TTL; the declaration is ignored — schedule deletes yourself, unless ttl: 'emulate' is chosen\./,
    );
    expect(report.toText()).toMatchSnapshot();
  });

  test("ttl: 'emulate' on SQLite: text and JSON", () => {
    const report = explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } });
    expect(report.entries.map((e) => [e.entity, e.mechanism, e.countsFrom])).toEqual([
      ['Session', 'emulated', 'last-write'],
      ['Visit', 'emulated', 'member:lastSeenAt'],
      ['Cart', 'emulated', 'last-write'],
      ['Reading', 'emulated', 'last-write'],
      ['CacheEntry', 'emulated', 'last-write'],
      ['AuditLog', 'none', null],
    ]);
    expect(report.entries.find((e) => e.entity === 'Cart')?.text).toContain('sliding expiry');
    expect(report.toText()).toMatchSnapshot();
    expect(report.toJSON()).toMatchSnapshot();
  });

  test.each(['postgres', 'mariadb', 'mysql'] as const)("ttl: 'emulate' on %s: the commands", (dialect) => {
    const entries = relationalExplainer.explain(model, { ttl: 'emulate', dialect });
    expect(
      entries.map((e) => ({ entity: e.entity, commands: e.materializedBy.commands, text: e.text })),
    ).toMatchSnapshot();
  });

  test("ttl: 'reject' — every TTL entity is a problem of one ModelError", () => {
    let error: unknown;
    try {
      explain(model, { stores: ['relational'], relational: { ttl: 'reject' } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).problems.map((p) => [p.entity, p.code])).toEqual([
      ['Session', 'RELATIONAL_TTL_REJECTED'],
      ['Visit', 'RELATIONAL_TTL_REJECTED'],
      ['Cart', 'RELATIONAL_TTL_REJECTED'],
      ['Reading', 'RELATIONAL_TTL_REJECTED'],
      ['CacheEntry', 'RELATIONAL_TTL_REJECTED'],
    ]);
    expect((error as Error).message).toMatchSnapshot();
  });

  test('bad options are named', () => {
    expect(() => relationalExplainer.explain(model, { ttl: 'sometimes' as never })).toThrow(
      expect.objectContaining({ code: 'STORE_BAD_OPTION', message: expect.stringContaining('"sometimes"') }),
    );
    expect(() => relationalExplainer.explain(model, { dialect: 'oracle' as never })).toThrow(
      expect.objectContaining({ code: 'STORE_BAD_OPTION' }),
    );
  });
});

describeEngines('relational explain (connected)', (engine) => {
  let knex: Knex;
  beforeAll(() => {
    knex = knexFor(engine);
  });
  afterAll(async () => {
    await knex?.destroy();
  });

  test("db.explain() is the explainer's report for the connected dialect", async () => {
    for (const ttl of ['ignore', 'emulate'] as const) {
      const db = await connectRelational(model, knex, { ttl });
      expect(db.explain().entries).toEqual(relationalExplainer.explain(model, { ttl, dialect: engine }));
      await db.close();
    }
  });

  test('with an injected clock the report says where now comes from', async () => {
    const db = await connectRelational(model, knex, { ttl: 'emulate', clock: () => new Date() });
    expect(db.explain().entries[0]?.text).toContain('now (the injected clock)');
    await db.close();
  });
});
