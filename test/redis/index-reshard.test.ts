/**
 * Index reads after a resharding: a slot moved to another primary (CLUSTER SETSLOT … IMPORTING /
 * MIGRATING, MIGRATE, SETSLOT … NODE) while the cluster client's slot map still names the old
 * owner. The index scripts are refused there ("Script attempted to access a non local key"), which
 * is no MOVED reply; the reads make the map current and run again. The test starts a cluster of its
 * own: moving a slot of the shared one would fail other files' tests meanwhile.
 */
import 'reflect-metadata';
import { createClient } from 'redis';
import { connect, Entity, Field, Key, ModelBuilder, TimeToLive, type StoreContext } from '../../src';
import { RedisStore } from '../../src/providers/redis';
import { slotIndexKey } from '../../src/providers/redis/collection-index';
import { ownSlots } from '../../src/providers/redis/reshard';
import { hashSlot } from '../../src/providers/redis/slots';
import {
  redisClusterClient,
  startRedisCluster,
  type RedisClusterBed,
  type TestRedisCluster,
} from '../harness/redis-cluster';
import { describeStore } from '../harness/stores';

@Entity()
@TimeToLive({ ttl: 3600, perWrite: true })
class Job {
  @Key() id = '';
  @Field() owner = '';
}

const model = () => new ModelBuilder().entity(Job, (e) => e.toCollection('job')).build();
const prefix = 'reshard:';
const job = (id: string) => Object.assign(new Job(), { id, owner: 'ann' });
const keyOf = (id: string) => `${prefix}job:${id}`;

type NodeClient = ReturnType<typeof createClient>;

describeStore('redis-cluster', 'collection index reads after a resharding', () => {
  let bed: RedisClusterBed;
  let cluster: TestRedisCluster;
  let db: StoreContext;
  const nodes = new Map<string, NodeClient>();
  const node = async (address: string): Promise<NodeClient> => {
    let client = nodes.get(address);
    if (!client) {
      client = createClient({ url: `redis://${address}` });
      client.on('error', () => undefined);
      await client.connect();
      nodes.set(address, client);
    }
    return client;
  };
  const send = async (address: string, args: string[]) => (await node(address)).sendCommand(args);

  beforeAll(async () => {
    bed = await startRedisCluster();
    cluster = await redisClusterClient(bed.nodes);
    db = await connect(model(), new RedisStore({ client: cluster, prefix }));
  }, 90_000);
  afterAll(async () => {
    await db?.close();
    for (const client of nodes.values()) client.destroy();
    cluster?.destroy();
    await bed?.stop();
  });

  /** Moves `slot` from its owner (as the client's map has it) to another primary, on the servers only. */
  async function moveSlot(slot: number): Promise<void> {
    const from = cluster.slots[slot]!.master.address;
    const to = cluster.masters.find((m) => m.address !== from)!.address;
    const [fromId, toId] = [String(await send(from, ['CLUSTER', 'MYID'])), String(await send(to, ['CLUSTER', 'MYID']))];
    await send(to, ['CLUSTER', 'SETSLOT', String(slot), 'IMPORTING', fromId]);
    await send(from, ['CLUSTER', 'SETSLOT', String(slot), 'MIGRATING', toId]);
    const keys = (await send(from, ['CLUSTER', 'GETKEYSINSLOT', String(slot), '1000'])) as unknown as string[];
    const [host, port] = to.split(':') as [string, string];
    if (keys.length > 0) await send(from, ['MIGRATE', host, port, '', '0', '5000', 'KEYS', ...keys]);
    for (const m of cluster.masters) await send(m.address, ['CLUSTER', 'SETSLOT', String(slot), 'NODE', toId]);
  }

  test('count(), find(), the forecast and findPage() follow a slot moved to another primary', async () => {
    const jobs = db.repository(Job);
    const ids = Array.from({ length: 12 }, (_, i) => `j${i}`);
    for (const id of ids) await jobs.upsert(job(id));
    expect(await jobs.count()).toBe(12);
    // A slot moved: the client's map still names the old owner.
    const first = hashSlot(keyOf('j0'));
    const stale = cluster.slots[first]!.master.address;
    await moveSlot(first);
    expect(cluster.slots[first]!.master.address).toBe(stale);
    await expect(send(stale, ['EXISTS', slotIndexKey(prefix, 'job', first)])).rejects.toThrow(/^MOVED/);
    expect(await jobs.count()).toBe(12);
    expect(cluster.slots[first]!.master.address).not.toBe(stale);
    expect((await jobs.find({})).map((j) => j.id).sort()).toEqual([...ids].sort());
    expect((await db.expiryForecast()).entries[0]).toMatchObject({ exact: true, read: 12 });
    // Another slot moved, read first by the index walk.
    const second = hashSlot(keyOf(ids.find((id) => hashSlot(keyOf(id)) !== first)!));
    const before = cluster.slots[second]!.master.address;
    await moveSlot(second);
    expect(cluster.slots[second]!.master.address).toBe(before);
    const page = await jobs.findPage({}, { limit: 100 });
    expect(page.items.map((j) => j.id).sort()).toEqual([...ids].sort());
    expect(cluster.slots[second]!.master.address).not.toBe(before);
    expect(await jobs.deleteMany({}, { all: true })).toBe(12);
  }, 60_000);
});

describe('ownSlots', () => {
  test("reads the myself line's slots, not those being imported or migrated", () => {
    const nodes = [
      'aaa 127.0.0.1:7001@17001 master - 0 0 1 connected 0-2 9',
      'bbb 127.0.0.1:7002@17002 myself,master - 0 0 2 connected 3-5 7 [6-<-aaa] [8->-aaa]',
      '',
    ].join('\n');
    expect([...ownSlots(nodes)]).toEqual([3, 4, 5, 7]);
    expect(ownSlots('').size).toBe(0);
  });
});
