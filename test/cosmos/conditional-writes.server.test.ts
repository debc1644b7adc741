/**
 * Issue 26 on the in-process Cosmos server: a patch is a write, so it moves _ts; without its own
 * ttl an item on the container default would start its countdown again. patch() therefore writes
 * the remaining seconds as the item's ttl: _ts + ttl (its expiry instant) stays, to the second.
 * update() and getOrInsert() over an item whose _ts + ttl has passed (still stored: the server
 * never expires anything) treat it as absent.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import {
  connect,
  Entity,
  ErrorCodes,
  Field,
  Key,
  ModelBuilder,
  TimeToLive,
  Version,
  type StoreContext,
} from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { describeStore } from '../harness/stores';
import { localCosmos, rawItem } from './fixtures';

@Entity('cw_passes')
@TimeToLive({ ttl: 30, perWrite: true })
class Pass {
  @Key() id = '';
  @Field() holder = '';
  @Version() version = 0;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pass = (id: string, holder = 'a') => Object.assign(new Pass(), { id, holder });

describeStore('cosmos', 'cosmos conditional writes (in-process server)', () => {
  const fixture = localCosmos();
  let database: Database;
  let db: StoreContext;

  beforeAll(async () => {
    database = await fixture.freshDatabase();
    db = await connect(new ModelBuilder().entity(Pass).build(), new CosmosStore({ database }));
    await db.ensureCollections();
  });

  test('a patch of an item on the container default writes its remaining ttl: _ts moves, _ts + ttl stays', async () => {
    const passes = db.repository(Pass);
    await passes.insert(pass('p'));
    const before = (await rawItem(database, 'cw_passes', 'p')) as { _ts: number; ttl?: number };
    expect(before.ttl).toBeUndefined();
    const expiresAt = before._ts + 30;
    await sleep(1100);
    expect(await passes.patch('p', { holder: 'b' })).toBe(true);
    const after = (await rawItem(database, 'cw_passes', 'p')) as unknown as {
      _ts: number;
      ttl: number;
      holder: string;
    };
    expect(after.holder).toBe('b');
    expect(after._ts).toBeGreaterThan(before._ts);
    expect(after._ts + after.ttl).toBeGreaterThanOrEqual(expiresAt);
    expect(after._ts + after.ttl).toBeLessThanOrEqual(expiresAt + 1);
    expect(await passes.ttl('p')).toBeLessThanOrEqual(29);
  });

  test('patch with { ttl } writes that ttl; update and getOrInsert treat a due item as absent', async () => {
    const passes = db.repository(Pass);
    await passes.insert(pass('t'));
    expect(await passes.patch('t', { holder: 'c' }, { ttl: 600 })).toBe(true);
    expect((await rawItem(database, 'cw_passes', 't'))?.ttl).toBe(600);
    await passes.insert(pass('due'), { ttl: 1 });
    await sleep(2100);
    expect(await rawItem(database, 'cw_passes', 'due')).toBeDefined();
    await expect(passes.update(Object.assign(pass('due'), { version: 1 }))).rejects.toMatchObject({
      code: ErrorCodes.STORE_VERSION_CONFLICT,
    });
    const result = await passes.getOrInsert(pass('due', 'fresh'));
    expect(result.inserted).toBe(true);
    expect(await rawItem(database, 'cw_passes', 'due')).toMatchObject({ holder: 'fresh', version: 1 });
  });
});
