/**
 * findPage / deleteMany on Cassandra carry the store's consistency levels (issue 26 review): a page
 * is read at the read level, and deleteMany's check that a row is gone at the write level, so it
 * reaches the replicas the delete was acknowledged by (a lower level could miss the tombstone and
 * count a deleted row as left).
 */
import { connect } from '../../src';
import { CassandraStore } from '../../src/providers/cassandra';
import { Item, pageModel } from '../contract/page-models';
import { isSystemRead, recordingClient } from './recording-client';

const model = pageModel('pc');

// Protocol codes: ONE 1, QUORUM 4, LOCAL_QUORUM 6.
async function sentBy(write: 'QUORUM' | 'ANY') {
  // deleteMany's selection finds one row; every other read finds none.
  const client = recordingClient((query) =>
    /WRITETIME/.test(query) ? [{ id: 'a', wt_0: 1_700_000_000_000_000n }] : undefined,
  );
  const store = new CassandraStore({
    client: client as never,
    keyspace: 'ks',
    consistency: { read: 'LOCAL_QUORUM', write },
  });
  const db = await connect(model, store);
  await db.repository(Item).findPage({ group: 'g' }, { limit: 5 });
  expect(await db.repository(Item).deleteMany({ group: 'g' })).toBe(1);
  await db.close();
  return client.sent.filter((s) => !isSystemRead(s));
}

test('findPage reads at the read level; deleteMany selects at read, deletes and checks at write', async () => {
  const sent = await sentBy('QUORUM');
  const levels = sent.map((s) => [s.query.split(' ')[0], /WRITETIME/.test(s.query), s.options['consistency']]);
  expect(levels).toEqual([
    ['SELECT', false, 6],
    ['SELECT', true, 6],
    ['DELETE', false, 4],
    ['SELECT', false, 4],
  ]);
});

test('with write ANY (a write-only level) the check reads at ONE', async () => {
  const sent = await sentBy('ANY');
  expect(sent.at(-1)?.options['consistency']).toBe(1);
});
