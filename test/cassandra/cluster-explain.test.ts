/**
 * explain()'s cluster paragraph and warnings without a server: offline (Cassandra's defaults, said
 * to be defaults) and connected to a stand-in whose system_schema / system_views answers are given.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, TimeToLive, connect } from '../../src';
import { CassandraStore, cassandraExplainer } from '../../src/providers/cassandra';
import { durationSeconds } from '../../src/providers/cassandra/cluster-settings';
import { recordingClient } from './recording-client';

@Entity('sessions')
@TimeToLive('1h')
class Session {
  @Key() id = '';
  @Field() note = '';
}

@Entity('audit_log')
class AuditLog {
  @Key() id = '';
  @Field() message = '';
}

@Entity('page_views')
class PageViews {
  @Key() page = '';
  @Field({ type: 'counter' }) views = 0;
}

const model = new ModelBuilder().entity(Session).entity(AuditLog).entity(PageViews).build();
const now = () => new Date('2026-12-02T00:00:00Z');

function entry(entries: readonly { entity: string }[], name: string) {
  const found = entries.find((e) => e.entity === name);
  if (!found) throw new Error(`no entry for ${name}`);
  return found as ReturnType<typeof cassandraExplainer.explain>[number];
}

describe('offline: explain(model)', () => {
  const entries = cassandraExplainer.explain(model, { now });
  const text = entry(entries, 'Session').text;

  test('each cluster fact of a TTL table, with its source', () => {
    expect(text).toContain(
      "In a cluster: reads, writes and the Paxos phase of lightweight transactions run at the levels of the store's " +
        "consistency option ({ read, write, serial }), or else at the client's queryOptions (cassandra-driver 4.x defaults: LOCAL_ONE, serial SERIAL).",
    );
    expect(text).toContain(
      "Expired cells become tombstones, kept gc_grace_seconds = 864000 s = 10 days (Cassandra's default; db.explain() " +
        "reads the live table's value on connect) before compaction may purge them " +
        '(https://cassandra.apache.org/doc/latest/cassandra/managing/operating/compaction/tombstones.html).',
    );
    expect(text).toContain(
      "Hints: a coordinator keeps the writes of a replica that is down for at most 3 h (max_hint_window, Cassandra's default), " +
        'and a hint lives only gc_grace_seconds, here 864000 s = 10 days (https://cassandra.apache.org/doc/latest/cassandra/managing/operating/hints.html).',
    );
    // The post describes 3.x, where an expired hint is dropped: said as a contrast, with the evidence for 5.0.
    expect(text).toContain(
      "seen on Cassandra 5.0.9 by this project's cluster test, and so in its source, where Hint.isLive checks only " +
        "the hint's creation time + gc_grace_seconds, not the cells' TTL " +
        '(https://github.com/apache/cassandra/blob/cassandra-5.0/src/java/org/apache/cassandra/hints/Hint.java) ' +
        '(unlike https://thelastpickle.com/blog/2018/03/21/hinted-handoff-gc-grace-demystified.html, which describes 3.x).',
    );
    expect(text).toMatch(
      /Repair: a replica that missed a TTL overwrite of a value written without TTL .* repair this table at least every 864000 s = 10 days \(https:\/\/cassandra\.apache\.org\/doc\/latest\/cassandra\/managing\/operating\/hints\.html\)\./,
    );
    expect(text).toContain(
      'Tombstones: a read scanning more than 1,000 tombstones is logged as a warning, one scanning more than 100,000 fails ' +
        "(tombstone_warn_threshold / tombstone_failure_threshold, Cassandra's default; " +
        'https://cassandra.apache.org/doc/latest/cassandra/managing/configuration/cass_yaml_file.html).',
    );
    expect(entry(entries, 'Session').warnings).toEqual([]);
  });

  test('a table whose rows never expire, and a counter table, get only the consistency sentence', () => {
    for (const name of ['AuditLog', 'PageViews']) {
      const { text: other, warnings } = entry(entries, name);
      expect(other).toContain('In a cluster: reads, writes and the Paxos phase');
      expect(other).not.toContain('Hints:');
      expect(other).not.toContain('tombstones');
      expect(warnings).toEqual([]);
    }
  });

  test('gcGraceSeconds given to explain(): named as given, and a risky value warns', () => {
    const [short] = cassandraExplainer.explain(new ModelBuilder().entity(Session).build(), {
      now,
      gcGraceSeconds: 3600,
    });
    expect(short?.text).toContain('kept gc_grace_seconds = 3600 s (as given to explain())');
    expect(short?.warnings).toEqual([
      "sessions: gc_grace_seconds = 3600 is shorter than the hint window, 3 h (max_hint_window, Cassandra's default): " +
        'hints for this table die after 3600 s, so a replica down longer than that misses TTL writes (and keeps the values they overwrote) until repair',
    ]);
    const [zero] = cassandraExplainer.explain(new ModelBuilder().entity(Session).build(), { now, gcGraceSeconds: 0 });
    expect(zero?.text).toContain(
      'but a hint lives only gc_grace_seconds, and gc_grace_seconds = 0 disables them for this table (https://github.com/palantir/atlasdb/pull/3513).',
    );
    // No hint to replay, and no "repair at least every 0 s".
    expect(zero?.text).not.toContain('A hint delivered in time');
    expect(zero?.text).not.toContain('every 0 s');
    expect(zero?.text).toContain(
      'with gc_grace_seconds = 0 they may purge at the first compaction, so only a repair before it helps',
    );
    expect(zero?.warnings).toEqual([
      'sessions: gc_grace_seconds = 0 disables hints for this table: a replica that is down during a write never gets it by hint, ' +
        'and a TTL overwrite it missed leaves its older value readable there until repair; raise gc_grace_seconds to at least ' +
        "the hint window, 3 h (max_hint_window, Cassandra's default)",
    ]);
  });
});

describe('connected: db.explain() with the live settings', () => {
  const answers = (gcGrace: number) =>
    recordingClient((query) => {
      if (/FROM system_schema\.tables/.test(query) && /gc_grace_seconds FROM/.test(query)) {
        return [{ table_name: 'sessions', default_time_to_live: 3600, gc_grace_seconds: gcGrace }];
      }
      if (/FROM system_views\.settings WHERE name IN/.test(query)) {
        return [
          { name: 'max_hint_window', value: '1h' },
          { name: 'hinted_handoff_enabled', value: 'false' },
          { name: 'tombstone_warn_threshold', value: '500' },
          { name: 'tombstone_failure_threshold', value: '50000' },
        ];
      }
      return undefined;
    });

  test("the table's gc_grace_seconds and the node's settings, named as live, and the levels set", async () => {
    const db = await connect(
      model,
      new CassandraStore({
        client: answers(7200) as never,
        keyspace: 'ks',
        now,
        consistency: { read: 'LOCAL_QUORUM', write: 'EACH_QUORUM' },
      }),
    );
    const entries = db.explain().entries;
    const { text, warnings } = entry(entries, 'Session');
    expect(text).toContain(
      "In a cluster: reads run at LOCAL_QUORUM, writes and batches at EACH_QUORUM, the Paxos phase of lightweight transactions (insert's IF NOT EXISTS) at the client's default level.",
    );
    expect(text).toContain('kept gc_grace_seconds = 7200 s (read from the live table)');
    expect(text).toContain(
      "more than 500 tombstones is logged as a warning, one scanning more than 50,000 fails (tombstone_warn_threshold / tombstone_failure_threshold, the connected node's setting;",
    );
    expect(warnings).toEqual([
      'sessions: the connected node has hinted_handoff_enabled: false: a replica that is down during a write gets it only by repair',
    ]);
    // Hinted handoff off: no window in which a coordinator keeps writes, and no hint replayed.
    expect(text).toContain(
      'Hints: the connected node has hinted_handoff_enabled: false, so a coordinator keeps no writes for a replica that is down',
    );
    expect(text).not.toContain('keeps the writes of a replica that is down for at most');
    expect(text).not.toContain('A hint delivered in time');
    await db.close();
  });

  test('a TTL table lifespan has not created yet: the default it will be created with, said so', async () => {
    @Entity('not_yet')
    @TimeToLive('1h')
    class NotYet {
      @Key() id = '';
    }
    const db = await connect(
      new ModelBuilder().entity(NotYet).build(),
      new CassandraStore({ client: answers(7200) as never, keyspace: 'ks', now }),
    );
    expect(entry(db.explain().entries, 'NotYet').text).toContain(
      "kept gc_grace_seconds = 864000 s = 10 days (the table does not exist yet: Cassandra's default, which lifespan's CREATE TABLE keeps)",
    );
    await db.close();
  });

  test("the serial level the client's queryOptions set is named, not assumed", async () => {
    const client = Object.assign(answers(7200), {
      options: { queryOptions: { consistency: 6, serialConsistency: 9 } },
    });
    const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks', now }));
    expect(entry(db.explain().entries, 'Session').text).toContain(
      "In a cluster: reads run at the client's queryOptions level (LOCAL_QUORUM), writes and batches at the client's " +
        "queryOptions level (LOCAL_QUORUM), the Paxos phase of lightweight transactions (insert's IF NOT EXISTS) at " +
        "the client's queryOptions level (LOCAL_SERIAL).",
    );
    await db.close();
  });

  test('each node setting has its own source; the 4.0 name max_hint_window_in_ms (milliseconds) is read', async () => {
    const client = recordingClient((query) =>
      /FROM system_views\.settings WHERE name IN/.test(query)
        ? [
            { name: 'max_hint_window_in_ms', value: '7200000' },
            { name: 'tombstone_warn_threshold', value: '500' },
          ]
        : undefined,
    );
    const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks', now }));
    const { text } = entry(db.explain().entries, 'Session');
    expect(text).toContain("at most 2 h (max_hint_window, the connected node's setting)");
    expect(text).toContain('more than 500 tombstones is logged as a warning');
    await db.close();
  });

  test('replication factor 1: no hint warnings (there is no other replica for a hint to reach)', async () => {
    const client = recordingClient((query) => {
      if (/FROM system_schema\.keyspaces/.test(query)) {
        return [{ replication: { class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '1' } }];
      }
      if (/gc_grace_seconds FROM/.test(query)) return [{ table_name: 'sessions', gc_grace_seconds: 0 }];
      return undefined;
    });
    const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks', now }));
    expect(entry(db.explain().entries, 'Session').warnings).toEqual([]);
    await db.close();
  });

  test('a failed settings read after a successful ensureCollections() does not fail it; the settings read when connected stay', async () => {
    let failing = false;
    const client = recordingClient((query) => {
      if (failing && /^SELECT table_name, gc_grace_seconds FROM/.test(query)) throw new Error('node went away');
      if (/FROM system_views\.settings WHERE name IN/.test(query)) return [{ name: 'max_hint_window', value: '1h' }];
      if (/SELECT keyspace_name FROM system_schema\.keyspaces/.test(query)) return [{ keyspace_name: 'ks' }];
      return undefined;
    });
    const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks', now }));
    failing = true;
    await expect(db.ensureCollections()).resolves.toBeDefined();
    expect(client.sent.some((s) => /^CREATE TABLE/.test(s.query))).toBe(true);
    expect(entry(db.explain().entries, 'Session').text).toContain(
      "at most 1 h (max_hint_window, the connected node's setting)",
    );
    await db.close();
  });

  test('gc_grace_seconds shorter than the live hint window warns, with both values', async () => {
    const db = await connect(model, new CassandraStore({ client: answers(600) as never, keyspace: 'ks', now }));
    expect(entry(db.explain().entries, 'Session').warnings[0]).toBe(
      "sessions: gc_grace_seconds = 600 is shorter than the hint window, 1 h (max_hint_window, the connected node's setting): " +
        'hints for this table die after 600 s, so a replica down longer than that misses TTL writes (and keeps the values they overwrote) until repair',
    );
    await db.close();
  });
});

test('system_views.settings durations as Cassandra shows them', () => {
  expect(durationSeconds('3h')).toBe(10_800);
  expect(durationSeconds('10800000ms')).toBe(10_800);
  expect(durationSeconds('90m')).toBe(5400);
  expect(durationSeconds('1d')).toBe(86_400);
  expect(durationSeconds('soon')).toBeNull();
  expect(durationSeconds(null)).toBeNull();
});
