/**
 * ensureCollections() reports every step it applied, also those applied in a round that then lost
 * a race to another process (a later step failed and the collection was planned again).
 */
import { connect, ModelBuilder } from '../../src';
import { MongoStore } from '../../src/providers/mongodb';
import type { MongoDbLike } from '../../src/providers/mongodb/gateway';
import { MemoryDb } from './fake/memory-db';
import { serverError } from './recording-db';

class Lease {
  id = '';
  createdAt: Date | null = null;
}

const model = new ModelBuilder()
  .entity(Lease, (e) =>
    e
      .toCollection('leases')
      .key((l) => l.id)
      .createdAt((l) => l.createdAt)
      .timeToLive(3600),
  )
  .build();

test('a step applied before a lost race is still listed as applied', async () => {
  const memory = new MemoryDb(new Date());
  let lost = false;
  // The first createIndexes loses a race: another process's index appeared with other options.
  const racing = new Proxy(memory, {
    get(target, name, receiver) {
      if (name !== 'command') return Reflect.get(target, name, receiver) as unknown;
      return async (command: Record<string, unknown>) => {
        if ('createIndexes' in command && !lost) {
          lost = true;
          throw serverError(85, 'IndexOptionsConflict', 'an equivalent index already exists with other options');
        }
        return memory.command(command as never);
      };
    },
  }) as unknown as MongoDbLike;
  const db = await connect(model, new MongoStore({ db: racing }));
  const { applied } = await db.ensureCollections();
  expect(lost).toBe(true);
  expect(applied.map((s) => s.action)).toEqual(['create-collection', 'create-ttl-index']);
});
