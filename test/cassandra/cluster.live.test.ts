/**
 * lifespan on a real three-node Cassandra cluster (127.0.0.2-127.0.0.4, replication factor 3):
 * its writes never tear a row's expiry across replicas; writes at QUORUM succeed with one node down
 * (paused with SIGSTOP) and the data expires on every replica, read node by node at ONE; what hints
 * do for a replica that was down past a TTL; explain() with the live tables' gc_grace_seconds.
 *
 * A read at ONE sent to one node (clusterClient(cluster, host)) is answered from that node's data:
 * the cluster's snitch puts the coordinator first, and the tables here take speculative_retry and
 * read_repair 'NONE', so no read looks at or repairs another replica.
 */
import 'reflect-metadata';
import { types, type Client } from 'cassandra-driver';
import { Entity, Field, Key, ModelBuilder, StoreError, TimeToLive, connect, type StoreContext } from '../../src';
import { CassandraStore, type CassandraStoreOptions } from '../../src/providers/cassandra';
import type { ClusterFile } from '../harness/cassandra-cluster-setup';
import {
  awaitCassandraCluster,
  clusterClient,
  createClusterKeyspace,
  describeCluster,
  pauseNode,
  resumeNode,
} from '../harness/cassandra-cluster';

@Entity('sessions')
@TimeToLive({ ttl: '1h', perWrite: true })
class Session {
  @Key() id = '';
  @Field() user = '';
  @Field() note = '';
}

const model = new ModelBuilder().entity(Session).build();
const { one, all, quorum } = types.consistencies;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const COORDINATOR = '127.0.0.2';
const OTHER = '127.0.0.3';
const PAUSED = '127.0.0.4';
/** Long enough for the paused node to get the write by hint before it expires. */
const SESSION_TTL = 60;

function session(id: string, note = 'n'): Session {
  return Object.assign(new Session(), { id, user: `user-${id}`, note });
}

describeCluster('cassandra cluster, replication factor 3 (live)', () => {
  let cluster: ClusterFile;
  let viaCoordinator: Client;
  const node = new Map<string, Client>();
  let keyspace: string;
  const open = (extra: Partial<CassandraStoreOptions> = {}): Promise<StoreContext> =>
    connect(model, new CassandraStore({ client: viaCoordinator, keyspace, ...extra }));

  /** One row's TTL() and WRITETIME() of every regular column, read from `host` alone at ONE. */
  async function cells(host: string, table: string, id: string): Promise<Record<string, unknown> | undefined> {
    const result = await node
      .get(host)!
      .execute(
        `SELECT TTL(user) AS ttl_user, TTL(note) AS ttl_note, WRITETIME(user) AS wt_user, WRITETIME(note) AS wt_note ` +
          `FROM ${keyspace}.${table} WHERE id = ?`,
        [id],
        { prepare: true, consistency: one },
      );
    const row = result.first();
    return row ? { ...row } : undefined;
  }

  async function valueOn(host: string, table: string, key: string): Promise<string | null> {
    const result = await node
      .get(host)!
      .execute(`SELECT v FROM ${keyspace}.${table} WHERE k = ?`, [key], { prepare: true, consistency: one });
    return (result.first()?.['v'] as string | undefined) ?? null;
  }

  /** Until the coordinator counts `host` out: a read at ALL is then refused at once as unavailable. */
  async function untilCoordinatorSeesDown(): Promise<void> {
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      try {
        await viaCoordinator.execute(`SELECT v FROM ${keyspace}.hinted WHERE k = 'probe'`, [], {
          consistency: all,
          readTimeout: 2000,
        });
      } catch (error) {
        if (/Not enough replicas available/.test(String(error))) return;
      }
      await sleep(250);
    }
    throw new Error(`${COORDINATOR} did not find ${PAUSED} down within 60 s`);
  }

  beforeAll(async () => {
    cluster = await awaitCassandraCluster();
    for (const host of cluster.hosts) resumeNode(cluster, host); // a crashed earlier run may have left one paused
    viaCoordinator = await clusterClient(cluster, COORDINATOR);
    for (const host of cluster.hosts) node.set(host, await clusterClient(cluster, host));
    keyspace = await createClusterKeyspace(viaCoordinator, 'ls_cluster');
    const db = await open();
    await db.ensureCollections();
    await db.close();
    const quiet = "speculative_retry = 'NONE' AND read_repair = 'NONE'";
    await viaCoordinator.execute(`ALTER TABLE ${keyspace}.sessions WITH ${quiet}`);
    // Two plain tables for what hints do with an overwrite that expired: one as lifespan creates
    // tables (gc_grace_seconds 864000), one with gc_grace_seconds = 0, which disables its hints.
    await viaCoordinator.execute(`CREATE TABLE ${keyspace}.hinted (k text PRIMARY KEY, v text) WITH ${quiet}`);
    await viaCoordinator.execute(
      `CREATE TABLE ${keyspace}.unhinted (k text PRIMARY KEY, v text) WITH ${quiet} AND gc_grace_seconds = 0`,
    );
  }, 360_000);

  afterAll(async () => {
    if (cluster) for (const host of cluster.hosts) resumeNode(cluster, host);
    if (keyspace) await viaCoordinator.execute(`DROP KEYSPACE IF EXISTS ${keyspace}`).catch(() => undefined);
    for (const client of [viaCoordinator, ...node.values()]) await client?.shutdown();
  });

  let quorumWriteAt = 0;
  let overwriteAt = 0;

  describe(`${PAUSED} paused (SIGSTOP) while lifespan writes`, () => {
    test('writes at QUORUM succeed with one node down; at ALL they are refused, and nothing is written', async () => {
      for (const table of ['hinted', 'unhinted']) {
        await viaCoordinator.execute(`INSERT INTO ${keyspace}.${table} (k, v) VALUES ('z', 'old')`, [], {
          consistency: all,
        });
      }
      pauseNode(cluster, PAUSED);
      await untilCoordinatorSeesDown();

      const strict = await open({ consistency: { write: 'ALL', read: 'ONE' } });
      const refused = await strict
        .repository(Session)
        .upsert(session('strict'))
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(StoreError);
      expect(String((refused as Error).message)).toMatch(/consistency ALL/);
      expect(await strict.repository(Session).get('strict')).toBeUndefined();
      await strict.close();

      const db = await open({ consistency: { write: 'QUORUM', read: 'QUORUM' } });
      await db.repository(Session).insert(session('q', 'written at QUORUM'), { ttl: SESSION_TTL });
      quorumWriteAt = Date.now();
      expect((await db.repository(Session).get('q'))?.note).toBe('written at QUORUM');
      await db.close();
      for (const host of [COORDINATOR, OTHER]) expect(await cells(host, 'sessions', 'q')).toBeDefined();

      // A TTL overwrite of an immortal value, and a long-lived row that shows when hints arrive.
      for (const table of ['hinted', 'unhinted']) {
        await viaCoordinator.execute(`INSERT INTO ${keyspace}.${table} (k, v) VALUES ('z', 'new') USING TTL 2`, [], {
          consistency: quorum,
        });
      }
      overwriteAt = Date.now();
      await viaCoordinator.execute(`INSERT INTO ${keyspace}.hinted (k, v) VALUES ('ctl', 'c') USING TTL 600`, [], {
        consistency: quorum,
      });
    }, 120_000);

    test('resumed past the TTL, the paused node gets the expired overwrite by hint (gc_grace_seconds > 0) or never (= 0)', async () => {
      await sleep(Math.max(0, overwriteAt + 2500 - Date.now()));
      resumeNode(cluster, PAUSED);
      // It missed the writes: its own copy still has the immortal value, unless the coordinator's
      // hints (its dispatcher runs every 10 s) landed already, on a loaded machine right after
      // SIGCONT (then null here). Either way the end state below must hold.
      expect([null, 'old']).toContain(await retry(() => valueOn(PAUSED, 'hinted', 'z')));
      const deadline = Date.now() + 120_000;
      while ((await valueOn(PAUSED, 'hinted', 'ctl')) === null) {
        if (Date.now() > deadline) throw new Error(`no hint reached ${PAUSED} within 120 s`);
        await sleep(500);
      }
      // The hint carried the expired cell too: it hides the old value, as on the other replicas.
      expect(await valueOn(PAUSED, 'hinted', 'z')).toBeNull();
      for (const host of [COORDINATOR, OTHER]) expect(await valueOn(host, 'hinted', 'z')).toBeNull();
      // gc_grace_seconds = 0: no hint, so the old value is back on that replica alone until repair.
      expect(await valueOn(PAUSED, 'unhinted', 'z')).toBe('old');
      for (const host of [COORDINATOR, OTHER]) expect(await valueOn(host, 'unhinted', 'z')).toBeNull();
      // lifespan's QUORUM write reached it by hint as well, with the same expiry and write time.
      const [paused, coordinator] = await Promise.all([
        cells(PAUSED, 'sessions', 'q'),
        cells(COORDINATOR, 'sessions', 'q'),
      ]);
      expect(String(paused?.['wt_note'])).toBe(String(coordinator?.['wt_note']));
      expect(Math.abs(Number(paused?.['ttl_note']) - Number(coordinator?.['ttl_note']))).toBeLessThanOrEqual(1);
    }, 180_000);
  });

  // While the QUORUM write waits out its TTL, with every node up again. Written at ALL with every
  // node up, so each replica gets the same write: this shows one write stamps every column alike;
  // across replicas, the hinted QUORUM write above is compared with the coordinator's copy.
  test("lifespan's writes never tear a row's expiry: TTL() and WRITETIME() of every column agree on each replica", async () => {
    const db = await open({ consistency: { write: 'ALL', read: 'ONE' } });
    const sessions = db.repository(Session);
    await sessions.insert(session('inserted'), { ttl: 600 });
    await sessions.upsert(session('upserted'), { ttl: 900 });
    await sessions.upsert(session('retimed'));
    expect(await sessions.setTtl('retimed', 1200)).toBe(true);
    await db.unitOfWork().upsert(session('batched-a')).upsert(session('batched-b')).commit({ ttl: 1500 });
    const expected = { inserted: 600, upserted: 900, retimed: 1200, 'batched-a': 1500, 'batched-b': 1500 };
    for (const [id, ttl] of Object.entries(expected)) {
      const before = Math.floor(Date.now() / 1000);
      const perNode = await Promise.all(cluster.hosts.map((host) => cells(host, 'sessions', id)));
      const crossed = Math.floor(Date.now() / 1000) - before; // second boundaries passed while reading
      const first = perNode[0]!;
      for (const row of perNode) {
        expect(row).toBeDefined();
        // One write stamps every column: the same TTL and write time on a node...
        expect(row!['ttl_note']).toBe(row!['ttl_user']);
        expect(String(row!['wt_note'])).toBe(String(row!['wt_user']));
        // ...and on every replica (TTL() counts down, so reads a second apart may differ by one).
        expect(String(row!['wt_user'])).toBe(String(first['wt_user']));
        expect(Math.abs(Number(row!['ttl_user']) - Number(first['ttl_user']))).toBeLessThanOrEqual(crossed);
        expect(Number(row!['ttl_user'])).toBeGreaterThan(ttl - 30);
        expect(Number(row!['ttl_user'])).toBeLessThanOrEqual(ttl);
      }
    }
    await db.close();
  });

  test("explain() reports each live table's gc_grace_seconds and warns where it is shorter than the hint window", async () => {
    let db = await open({ consistency: { read: 'LOCAL_QUORUM', write: 'QUORUM', serial: 'LOCAL_SERIAL' } });
    let [entry] = db.explain().entries;
    expect(entry?.text).toContain(
      'In a cluster: reads run at LOCAL_QUORUM, writes and batches at QUORUM, the Paxos phase of lightweight transactions',
    );
    expect(entry?.text).toContain('kept gc_grace_seconds = 864000 s = 10 days (read from the live table)');
    expect(entry?.text).toContain("at most 3 h (max_hint_window, the connected node's setting)");
    expect(entry?.warnings).toEqual([]);
    await db.close();

    await viaCoordinator.execute(`ALTER TABLE ${keyspace}.sessions WITH gc_grace_seconds = 3600`);
    db = await open();
    [entry] = db.explain().entries;
    expect(entry?.text).toContain('kept gc_grace_seconds = 3600 s (read from the live table)');
    expect(entry?.warnings).toEqual([
      expect.stringMatching(/^sessions: gc_grace_seconds = 3600 is shorter than the hint window, 3 h/),
    ]);
    await db.close();
    await viaCoordinator.execute(`ALTER TABLE ${keyspace}.sessions WITH gc_grace_seconds = 864000`);
  });

  describe(`after the TTL of the write made while ${PAUSED} was paused`, () => {
    test('the QUORUM write expires on every replica, read node by node at ONE', async () => {
      await sleep(Math.max(0, quorumWriteAt + SESSION_TTL * 1000 + 1200 - Date.now()));
      for (const host of cluster.hosts) expect(await cells(host, 'sessions', 'q')).toBeUndefined();
      const db = await open({ consistency: { read: 'ALL' } });
      expect(await db.repository(Session).get('q')).toBeUndefined();
      expect(await db.repository(Session).exists('q')).toBe(false);
      await db.close();
    }, 120_000);
  });
});

/** The first answer of a node that was just resumed (its client reconnects within a few seconds). */
async function retry<T>(read: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 20) throw error;
      await sleep(250);
    }
  }
}
