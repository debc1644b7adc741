/**
 * The consistency option of CassandraStore, without a server: what it accepts and refuses, and that
 * every data statement lifespan sends carries the levels (reads, writes, lightweight transactions,
 * batches) while the reads of the node's own tables carry none.
 */
import 'reflect-metadata';
import { Entity, Field, Key, LifespanError, ModelBuilder, TimeToLive, connect } from '../../src';
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
    [{ read: 'SERIAL' }],
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
      'consistency.read must be one of ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM, EACH_QUORUM, SERIAL, LOCAL_SERIAL, LOCAL_ONE, got "QUORUMM"',
    );
    expect(error.hint).toBe("read: 'LOCAL_QUORUM'");
  });

  test('a level in the wrong case is not guessed at', () => {
    expect(refusal({ write: 'local_quorum' }).detail).toMatch(
      /^consistency\.write must be one of ANY, ONE, .*got "local_quorum"$/,
    );
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
    expect(refusal({ read: 1 }).detail).toMatch(/got 1$/);
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
    await db
      .unitOfWork()
      .upsert(Object.assign(new Session(), { id: 'c', note: 'n' }))
      .upsert(Object.assign(new Session(), { id: 'd', note: 'n' }))
      .commit({ ttl: 60 });
    await db.unitOfWork().delete(Session, 'c').commit();
    await db.close();

    const data = client.sent.filter((s) => !isSystemRead(s));
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
