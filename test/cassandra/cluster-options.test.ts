/**
 * The consistency option of CassandraStore, without a server: what it accepts and refuses, and that
 * every data statement lifespan sends carries the levels (reads, writes, lightweight transactions,
 * batches) while the reads of the node's own tables carry none.
 */
import 'reflect-metadata';
import { CreatedAt, Entity, Field, Key, LifespanError, ModelBuilder, TimeToLive, connect } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { isSystemRead, recordingClient } from './recording-client';

@Entity('sessions')
@TimeToLive({ ttl: '1h', perWrite: true })
class Session {
  @Key() id = '';
  @Field() note = '';
}

const model = new ModelBuilder().entity(Session).build();

function refusal(consistency: unknown, extra: Record<string, unknown> = {}): LifespanError {
  try {
    new CassandraStore({ client: recordingClient() as never, keyspace: 'ks', consistency, ...extra } as never);
  } catch (error) {
    expect(error).toBeInstanceOf(LifespanError);
    expect((error as LifespanError).code).toBe('STORE_BAD_OPTION');
    return error as LifespanError;
  }
  throw new Error('accepted');
}

describe('consistency: what it accepts', () => {
  test.each([
    [{ read: 'LOCAL_QUORUM', write: 'QUORUM', serial: 'LOCAL_SERIAL' }],
    [{ write: 'ANY' }],
    [{ serial: 'SERIAL' }],
    [{}],
    [undefined],
  ])('%j', (consistency) => {
    expect(
      () => new CassandraStore({ client: recordingClient() as never, keyspace: 'ks', consistency } as never),
    ).not.toThrow();
  });
});

describe('consistency: what it refuses, naming the value and the levels it knows', () => {
  test('an unknown level', () => {
    const error = refusal({ read: 'QUORUMM' });
    expect(error.detail).toBe(
      'consistency.read must be one of ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, LOCAL_ONE, got "QUORUMM"',
    );
    expect(error.hint).toBe("read: 'LOCAL_QUORUM'");
  });

  test('a level in the wrong case is not guessed at, but the refusal names the level meant', () => {
    expect(refusal({ write: 'local_quorum' }).detail).toMatch(
      /^consistency\.write must be one of ANY, ONE, .*got "local_quorum" \(levels are upper case: 'LOCAL_QUORUM'\)$/,
    );
  });

  test("a driver code (types.consistencies.quorum is 4) is refused with the level's name", () => {
    expect(refusal({ read: 4 }).detail).toMatch(
      /got 4 \(the driver's code of QUORUM: give the level's name, 'QUORUM'\)$/,
    );
  });

  test('a SERIAL read level is refused: the read level also runs range scans (find, count, plan --counts)', () => {
    for (const level of ['SERIAL', 'LOCAL_SERIAL']) {
      const error = refusal({ read: level });
      expect(error.detail).toContain(`got "${level}" (a SERIAL read is linearizable only within one partition`);
      expect(error.detail).toContain('find, count and plan --counts, which scan ranges');
    }
  });

  test('only a plain object: a Map or a Date has no levels to read', () => {
    expect(refusal(new Map([['read', 'ONE']])).detail).toMatch(
      /^consistency must be an object \{ read\?, write\?, serial\? \}, got/,
    );
    expect(refusal(new Date(0)).detail).toMatch(/^consistency must be an object/);
    expect(
      () =>
        new CassandraStore({
          client: recordingClient() as never,
          keyspace: 'ks',
          consistency: Object.assign(Object.create(null), { read: 'ONE' }),
        }),
    ).not.toThrow();
  });

  test('a level of another kind, with the reason', () => {
    expect(refusal({ read: 'ANY' }).detail).toMatch(/got "ANY" \(ANY is for writes only\)$/);
    expect(refusal({ write: 'LOCAL_SERIAL' }).detail).toMatch(
      /got "LOCAL_SERIAL" \(SERIAL levels are for the Paxos phase of conditional writes: set them as serial\)$/,
    );
    const serial = refusal({ serial: 'QUORUM' });
    expect(serial.detail).toMatch(/^consistency\.serial must be one of SERIAL, LOCAL_SERIAL, got "QUORUM"/);
    expect(serial.hint).toBe("serial: 'LOCAL_SERIAL'");
  });

  test("names an object's own properties only: 'toString' is neither a key nor a level", () => {
    expect(refusal({ toString: 'ONE' }).detail).toBe(
      "consistency has unknown key 'toString'; it takes read, write and serial",
    );
    expect(refusal({ read: 'toString' }).detail).toMatch(/got "toString"$/);
  });

  test('an unknown key', () => {
    expect(refusal({ reads: 'ONE', writes: 'ALL' }).detail).toBe(
      "consistency has unknown keys 'reads', 'writes'; it takes read, write and serial",
    );
  });

  test('a level that is not a string, and a consistency that is not an object', () => {
    expect(refusal({ read: true }).detail).toMatch(/got true$/);
    expect(refusal('QUORUM').detail).toBe('consistency must be an object { read?, write?, serial? }, got "QUORUM"');
    expect(refusal(null).detail).toMatch(/got null$/);
  });

  test('an unknown store option (a misspelt consistency) is refused, not ignored', () => {
    const error = refusal(undefined, { consistencyLevel: 'QUORUM' });
    expect(error.detail).toBe("unknown option 'consistencyLevel'");
    expect(error.hint).toBe('new CassandraStore({ client, keyspace, expirationCeiling, now, consistency })');
  });

  test("write 'ANY' with a counter table is refused when the store opens the model", async () => {
    @Entity('page_views')
    class PageViews {
      @Key() page = '';
      @Field({ type: 'counter' }) views = 0;
    }
    const store = new CassandraStore({
      client: recordingClient() as never,
      keyspace: 'ks',
      consistency: { write: 'ANY' },
    });
    await expect(connect(new ModelBuilder().entity(PageViews).build(), store)).rejects.toThrow(
      "consistency.write 'ANY' cannot be used with counter table page_views: Cassandra refuses counter updates at ANY",
    );
  });
});

describe('the levels reach every statement lifespan sends', () => {
  test('reads at read, writes and batches at write, and the serial level on each; system reads at none', async () => {
    const client = recordingClient();
    const db = await connect(
      model,
      new CassandraStore({
        client: client as never,
        keyspace: 'ks',
        consistency: { read: 'LOCAL_QUORUM', write: 'QUORUM', serial: 'LOCAL_SERIAL' },
      }),
    );
    const sessions = db.repository(Session);
    await sessions.insert(Object.assign(new Session(), { id: 'a', note: 'n' }));
    await sessions.upsert(Object.assign(new Session(), { id: 'b', note: 'n' }), { ttl: 60 });
    await sessions.get('a');
    await sessions.getMany(['a', 'b']);
    await sessions.find({ id: 'a' });
    await sessions.count({});
    await sessions.exists('a');
    await sessions.ttl('a');
    await sessions.delete('b');
    await sessions.findPage({}, { limit: 10 });
    await sessions.deleteMany({ id: 'a' });
    await db
      .unitOfWork()
      .upsert(Object.assign(new Session(), { id: 'c', note: 'n' }))
      .upsert(Object.assign(new Session(), { id: 'd', note: 'n' }))
      .commit({ ttl: 60 });
    await db.unitOfWork().delete(Session, 'c').commit();
    await db.close();

    const data = client.sent.filter((s) => !isSystemRead(s));
    // findPage and deleteMany page through executor.page(): they too carry the levels.
    expect(data.some((s) => s.options['fetchSize'] === 10)).toBe(true);
    const kinds = new Set(data.map((s) => (s.batch ? 'BATCH' : s.query.split(' ')[0])));
    expect([...kinds].sort()).toEqual(['BATCH', 'DELETE', 'INSERT', 'SELECT']);
    for (const statement of data) {
      const read = /^SELECT/.test(statement.query);
      // Protocol codes: LOCAL_QUORUM 6, QUORUM 4, LOCAL_SERIAL 9.
      expect({ query: statement.query, consistency: statement.options['consistency'] }).toEqual({
        query: statement.query,
        consistency: read ? 6 : 4,
      });
      expect(statement.options['serialConsistency']).toBe(9);
    }
    const system = client.sent.filter(isSystemRead);
    expect(system.length).toBeGreaterThan(0);
    for (const statement of system) {
      expect(statement.options['consistency']).toBeUndefined();
      expect(statement.options['serialConsistency']).toBeUndefined();
    }
  });

  test("without the option, statements carry no level: the client's own defaults apply", async () => {
    const client = recordingClient();
    const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks' }));
    await db.repository(Session).insert(Object.assign(new Session(), { id: 'a', note: 'n' }));
    await db.repository(Session).get('a');
    await db.close();
    for (const statement of client.sent) {
      expect(statement.options['consistency']).toBeUndefined();
      expect(statement.options['serialConsistency']).toBeUndefined();
    }
  });
});

describe('a read whose answer decides a write runs at the stronger of read and write', () => {
  @Entity('stamped')
  @TimeToLive({ ttl: '1h', perWrite: true })
  class Stamped {
    @Key() id = '';
    @Field() note = '';
    @CreatedAt() createdAt = new Date(0);
  }

  test("upsert's createdAt read and setTtl's read go at QUORUM when write is QUORUM and read ONE; get at ONE", async () => {
    const client = recordingClient();
    const db = await connect(
      new ModelBuilder().entity(Stamped).build(),
      new CassandraStore({ client: client as never, keyspace: 'ks', consistency: { read: 'ONE', write: 'QUORUM' } }),
    );
    const repo = db.repository(Stamped);
    await repo.upsert(Object.assign(new Stamped(), { id: 'a', note: 'n' }));
    await repo.setTtl('a', 60);
    await repo.get('a');
    await db.close();
    const reads = client.sent.filter((s) => !isSystemRead(s) && /^SELECT/.test(s.query));
    // Protocol codes: ONE 1, QUORUM 4.
    expect(reads.map((s) => s.options['consistency'])).toEqual([4, 4, 1]);
  });

  test('a read level already as strong stays, and write ANY does not lower it', async () => {
    const { readBeforeWrite } = await import('../../src/providers/cassandra/consistency');
    expect(readBeforeWrite({ read: 'ALL', write: 'QUORUM' }).read).toBe('ALL');
    expect(readBeforeWrite({ read: 'ONE', write: 'ANY' }).read).toBe('ONE');
    expect(readBeforeWrite({ write: 'LOCAL_QUORUM' }).read).toBe('LOCAL_QUORUM');
  });
});

test("the levels are copied when the store is made: changing the caller's object later changes nothing", async () => {
  const client = recordingClient();
  const consistency: { read: string } = { read: 'QUORUM' };
  const db = await connect(
    model,
    new CassandraStore({ client: client as never, keyspace: 'ks', consistency } as never),
  );
  consistency.read = 'ANY';
  await db.repository(Session).get('a');
  await db.close();
  const read = client.sent.filter((s) => !isSystemRead(s) && /^SELECT/.test(s.query));
  expect(read.map((s) => s.options['consistency'])).toEqual([4]);
});
