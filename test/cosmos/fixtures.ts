/** Shared set-up of the Cosmos tests: one in-process server per test file, a fresh database per test. */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { type LocalCosmos, startCosmosServer } from '../harness/cosmos';

export interface CosmosFixture {
  readonly cosmos: () => LocalCosmos;
  freshDatabase(): Promise<Database>;
}

/** Call inside a describeStore('cosmos', ...) block. */
export function localCosmos(): CosmosFixture {
  let cosmos: LocalCosmos | undefined;
  let n = 0;
  beforeAll(async () => {
    cosmos = await startCosmosServer();
  });
  afterAll(async () => {
    await cosmos?.close();
  });
  const get = (): LocalCosmos => {
    if (!cosmos) throw new Error('the Cosmos server is not started (use localCosmos() inside describeStore)');
    return cosmos;
  };
  return {
    cosmos: get,
    async freshDatabase() {
      n += 1;
      return (await get().client.databases.createIfNotExists({ id: `lifespan_${n}` })).database;
    },
  };
}

/** The raw item as the server stores it (ttl, _ts, $type and all). */
export async function rawItem(database: Database, container: string, id: string, partition: string | number = id) {
  return (await database.container(container).item(id, partition).read<Record<string, unknown>>()).resource;
}
