/**
 * Issue 25, without a server: `lifespan diff` labels a TTL change that can bring due records back
 * (a longer retroactive TTL, emulation turned off) as an un-expiry, and not where it cannot happen;
 * the relational store with TTL ignored forecasts nothing and says so (SQLite in memory).
 */
import 'reflect-metadata';
import knexFactory from 'knex';
import { connect, CreatedAt, Entity, Field, Key, ModelBuilder, renderPlanText, TimeToLive } from '../../src';
import { compareSnapshots } from '../../src/cli/review/compare';
import { snapshotOf } from '../../src/cli/review/snapshot-file';
import type { OfflineChoice } from '../../src/cli/offline-stores';
import { DESCRIPTORS, STORE_NAMES, type StoreName } from '../../src/providers/registry';

/** The offline review's choice of stores, as the --store / --emulate flags give it. */
function offline(stores: readonly StoreName[], relationalTtl: 'ignore' | 'emulate'): OfflineChoice {
  return { stores, relationalTtl, relationalDialect: 'sqlite', source: 'flags' };
}
import { RelationalStore } from '../../src/providers/relational';

@Entity()
@TimeToLive('1h')
class Session {
  @Key() id = '';
  @Field() note = '';
  @CreatedAt() createdAt = new Date(0);
}

const at = (ttl: string) =>
  new ModelBuilder().entity(Session, (e) => e.toCollection('sessions').timeToLive(ttl)).build();

describe('diff labels un-expiry offline', () => {
  const stores = STORE_NAMES;

  test('a longer TTL: labelled on the retroactive stores only', () => {
    const plans = compareSnapshots(
      snapshotOf(at('1h'), offline(stores, 'emulate')),
      snapshotOf(at('2h'), offline(stores, 'emulate')),
      'snapshot',
    );
    const labelled = Object.fromEntries(plans.map((p) => [p.store, p.steps.some((s) => s.effect?.unexpires === true)]));
    // Labelled where a changed default TTL re-judges stored data (each store's descriptor says where).
    expect(labelled).toEqual(
      Object.fromEntries(DESCRIPTORS.map((d) => [d.name, d.capabilities.ttlChangeEffect === 'retroactive'])),
    );
    const cosmos = plans.find((p) => p.store === 'cosmos');
    expect(renderPlanText(cosmos!)).toContain(
      'un-expiry: due records become readable again; apply needs allowUnexpiry',
    );
  });

  test('a shorter TTL is not an un-expiry', () => {
    const plans = compareSnapshots(
      snapshotOf(at('2h'), offline(stores, 'emulate')),
      snapshotOf(at('1h'), offline(stores, 'emulate')),
      'snapshot',
    );
    expect(plans.flatMap((p) => p.steps).some((s) => s.effect?.unexpires === true)).toBe(false);
  });

  test('relational emulation turned off is an un-expiry', () => {
    const plans = compareSnapshots(
      snapshotOf(at('1h'), offline(['relational'], 'emulate')),
      snapshotOf(at('1h'), offline(['relational'], 'ignore')),
      'snapshot',
    );
    expect(plans[0]?.steps.some((s) => s.effect?.unexpires === true)).toBe(true);
  });
});

test('the relational store with TTL ignored forecasts nothing, and says why', async () => {
  const knex = knexFactory({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
  try {
    const db = await connect(at('1h'), new RelationalStore({ knex, ttl: 'ignore', logger: { warn: () => undefined } }));
    await db.ensureCollections();
    await db.repository(Session).insert(Object.assign(new Session(), { id: 's1', note: 'n' }));
    const [f] = (await db.expiryForecast()).entries;
    expect(f).toMatchObject({ entity: 'Session', store: 'relational', method: 'none', exact: true, read: 0 });
    expect(f?.note).toContain("TTL is ignored on the relational store (ttl: 'ignore')");
    expect((await db.expiryForecast()).toText()).toContain('Session (relational, sessions): TTL is ignored');
    await db.close();
  } finally {
    await knex.destroy();
  }
});
