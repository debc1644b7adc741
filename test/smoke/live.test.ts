/**
 * Live suites for stores that cannot run on the CI machine. Each runs only when its environment
 * variables are set; otherwise it prints one line saying why it skipped.
 */
import { MongoClient } from 'mongodb';
import { liveCosmosClient } from '../harness/cosmos';
import { describeLive } from '../harness/stores';

const suffix = `${Date.now().toString(36)}_${process.pid}`;

describeLive('mongodb', ['MONGODB_URI'], () => {
  let client: MongoClient;
  const dbName = `lifespan_smoke_${suffix}`;

  beforeAll(async () => {
    client = new MongoClient(process.env['MONGODB_URI'] ?? '', { serverSelectionTimeoutMS: 10_000 });
    await client.connect();
  });

  afterAll(async () => {
    await client
      ?.db(dbName)
      .dropDatabase()
      .catch(() => undefined);
    await client?.close();
  });

  it('creates a TTL index and reads expireAfterSeconds back', async () => {
    const sessions = client.db(dbName).collection('sessions');
    await sessions.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600, name: 'ttl_createdAt' });
    const index = (await sessions.indexes()).find((i) => i.name === 'ttl_createdAt');
    expect(index?.expireAfterSeconds).toBe(3600);
  });
});

describeLive('cosmos-live', ['COSMOS_ENDPOINT', 'COSMOS_KEY'], () => {
  const client = liveCosmosClient();
  const databaseId = `lifespan-smoke-${suffix}`;

  afterAll(async () => {
    await client
      .database(databaseId)
      .delete()
      .catch(() => undefined);
    client.dispose();
  });

  it('creates a container with defaultTtl, replaces it and reads it back', async () => {
    const { database } = await client.databases.createIfNotExists({ id: databaseId });
    const { container } = await database.containers.createIfNotExists({
      id: 'sessions',
      partitionKey: { paths: ['/pk'] },
      defaultTtl: 3600,
    });
    expect((await container.read()).resource?.defaultTtl).toBe(3600);
    await container.replace({ id: 'sessions', partitionKey: { paths: ['/pk'] }, defaultTtl: 60 });
    expect((await container.read()).resource?.defaultTtl).toBe(60);
  });
});
