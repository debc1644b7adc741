/**
 * Smoke test of the in-process Cosmos DB protocol server with the real @azure/cosmos SDK.
 * The server stores defaultTtl / ttl but never expires anything, so only configuration is checked.
 */
import type { Database } from '@azure/cosmos';
import { type LocalCosmos, startCosmosServer } from '../harness/cosmos';
import { describeStore } from '../harness/stores';

describeStore('cosmos', 'cosmos server smoke', () => {
  let cosmos: LocalCosmos;
  let database: Database;

  beforeAll(async () => {
    cosmos = await startCosmosServer();
    database = (await cosmos.client.databases.createIfNotExists({ id: 'smoke' })).database;
  });

  afterAll(async () => {
    await cosmos?.close();
  });

  it('listens on a random localhost port over https', () => {
    expect(cosmos.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(cosmos.endpoint).not.toMatch(/:8081$/);
  });

  it('stores a container defaultTtl, reads it back, replaces it and reads it back', async () => {
    const { container } = await database.containers.createIfNotExists({
      id: 'sessions',
      partitionKey: { paths: ['/pk'] },
      defaultTtl: 3600,
    });
    const first = (await container.read()).resource;
    expect(first?.defaultTtl).toBe(3600);
    expect(first?.partitionKey?.paths).toEqual(['/pk']);

    await container.replace({ id: 'sessions', partitionKey: { paths: ['/pk'] }, defaultTtl: 60 });
    const second = (await container.read()).resource;
    expect(second?.defaultTtl).toBe(60);
  });

  it('stores a per-item ttl next to _ts', async () => {
    const { container } = await database.containers.createIfNotExists({
      id: 'items',
      partitionKey: { paths: ['/pk'] },
      defaultTtl: -1,
    });
    await container.items.create({ id: 'a', pk: 'p', ttl: 30 });
    const { resource } = await container.item('a', 'p').read<{ id: string; ttl: number; _ts: number }>();
    expect(resource?.ttl).toBe(30);
    expect(typeof resource?._ts).toBe('number');
  });
});
