/**
 * Issue 28, point 1: Cassandra's ensureCollections() runs its steps through the step table (each
 * step's applier), not past it. No server: the recording client answers an empty keyspace.
 */
import { connect, ModelBuilder, TimeToLive } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { CASSANDRA_STEPS } from '../../src/providers/cassandra/steps';
import { recordingClient } from '../cassandra/recording-client';

@TimeToLive('1h')
class Lease {
  id = '';
}

const model = new ModelBuilder().entity(Lease, (e) => e.toCollection('leases').key((l) => l.id)).build();

afterEach(() => jest.restoreAllMocks());

test('ensureCollections() creates a missing table through the step table', async () => {
  const applier = jest.spyOn(CASSANDRA_STEPS.table['create-table'], 'apply');
  const parses = jest.spyOn(CASSANDRA_STEPS.table['create-table'], 'parse');
  const client = recordingClient((query) =>
    /system_schema\.keyspaces/.test(query) ? [{ keyspace_name: 'ks' }] : undefined,
  );
  const db = await connect(model, new CassandraStore({ client: client as never, keyspace: 'ks' }));
  const result = await db.ensureCollections();
  expect(result.applied.map((s) => s.action)).toEqual(['create-table']);
  expect(parses).toHaveBeenCalledTimes(1);
  expect(applier).toHaveBeenCalledTimes(1);
  expect(client.sent.some((s) => /CREATE TABLE IF NOT EXISTS \S*leases/i.test(s.query))).toBe(true);
});
