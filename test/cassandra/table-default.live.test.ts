/**
 * The table default (default_time_to_live) observed through lifespan's own API on the real node:
 * a repository write without a per-write TTL sends no USING TTL, the node stamps the table default,
 * ttl() reports it, and the row is gone once it runs out.
 */
import 'reflect-metadata';
import type { Client } from 'cassandra-driver';
import { Entity, Field, Key, TimeToLive, type StoreContext } from '../../src';
import { describeStore } from '../harness/stores';
import { build, cellTtl, liveDefaultTtl, open, sleep, useTestKeyspace } from './fixtures';

@Entity('blinks')
@TimeToLive(2)
class Blink {
  @Key() id = '';
  @Field() note = '';
}

const blink = (id: string) => Object.assign(new Blink(), { id, note: 'n' });

describeStore('cassandra', 'cassandra table-default expiry through lifespan (live)', () => {
  let client: Client;
  let keyspace: string;
  let db: StoreContext;

  useTestKeyspace('ls_tdef', async (live) => {
    ({ client, keyspace } = live);
    db = await open(
      client,
      keyspace,
      build((b) => b.entity(Blink)),
    );
    await db.ensureCollections();
  });

  it('a write without a per-write TTL expires by default_time_to_live, and ttl() reports that default', async () => {
    expect(await liveDefaultTtl(client, keyspace, 'blinks')).toBe(2);
    const blinks = db.repository(Blink);
    const sent: string[] = [];
    const execute = jest.spyOn(client, 'execute');
    const batch = jest.spyOn(client, 'batch');
    try {
      await blinks.insert(blink('plain'));
      await blinks.upsert(blink('upserted'));
      await db.unitOfWork().upsert(blink('uow')).commit();
      const written = Date.now();
      for (const call of execute.mock.calls) sent.push(String(call[0]));
      for (const call of batch.mock.calls) {
        for (const q of call[0] as unknown[])
          sent.push(typeof q === 'string' ? q : String((q as { query: string }).query));
      }
      expect(sent.some((q) => /INSERT/i.test(q))).toBe(true);
      expect(sent.filter((q) => /USING TTL/i.test(q))).toEqual([]);

      for (const id of ['plain', 'upserted', 'uow']) {
        const left = await blinks.ttl(id);
        expect(left).toBeGreaterThanOrEqual(1);
        expect(left).toBeLessThanOrEqual(2);
        expect(await cellTtl(client, keyspace, 'blinks', 'id', id, 'note')).toBeLessThanOrEqual(2);
      }
      expect(await blinks.count()).toBe(3);

      await sleep(Math.max(0, written + 2600 - Date.now()));

      expect(await blinks.getMany(['plain', 'upserted', 'uow'])).toEqual([]);
      expect(await blinks.exists('plain')).toBe(false);
      expect(await blinks.ttl('plain')).toBeUndefined();
      expect(await blinks.count()).toBe(0);
      const raw = await client.execute(`SELECT * FROM "${keyspace}"."blinks"`);
      expect(raw.rows).toEqual([]);
    } finally {
      execute.mockRestore();
      batch.mockRestore();
    }
  });

  it("'default' on a write is the table default too, and explain() names the table setting", async () => {
    const blinks = db.repository(Blink);
    await blinks.upsert(blink('named'), { ttl: 'default' });
    const left = await blinks.ttl('named');
    expect(left).toBeGreaterThanOrEqual(1);
    expect(left).toBeLessThanOrEqual(2);
    const [entry] = db.explain().entries;
    expect(entry).toMatchObject({ mechanism: 'table-default-ttl', seconds: 2, countsFrom: 'last-write' });
    expect(entry?.materializedBy.commands[0]).toContain('default_time_to_live = 2');
  });
});
