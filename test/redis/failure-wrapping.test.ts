/**
 * Failures the Redis provider meets that no local server produces on demand: each one is a typed
 * StoreError with the hint that fits it.
 */
import { StoreError } from '../../src/errors';
import { operationFailed } from '../../src/providers/redis/gateway';
import { walkIndex } from '../../src/providers/redis/index-reads';
import { clusterNodes } from '../../src/providers/redis/nodes';
import type { KeyspaceMapping } from '../../src/providers/redis/compile';

const place = { entity: 'Doc', operation: 'find/count (collection index)' };

test('a script refused during resharding (a key of a migrating slot) gets the cluster-changing hint', () => {
  const refused = new Error(
    'ERR Script attempted to access a non local key in a cluster node script: abc, on @user_script:12.',
  );
  const error = operationFailed(refused, place) as StoreError;
  expect(error).toBeInstanceOf(StoreError);
  expect(error.hint).toMatch(/failover or resharding/);
});

test('a cluster node whose client cannot connect fails as STORE_OPERATION_FAILED', async () => {
  const node = { address: '10.0.0.9:7001' };
  const nodes = clusterNodes({
    sendCommand: () => Promise.resolve(null),
    masters: [node],
    slots: [{ master: node }],
    nodeClient: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.9:7001')),
  });
  await expect(nodes.primaries()).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED' });
  await expect(nodes.slotOwners()).rejects.toBeInstanceOf(StoreError);
});

test('an index read that does not reply an array fails as a StoreError, not as an empty collection', async () => {
  const client = { sendCommand: () => Promise.resolve('OK') };
  const mapping = { collection: 'doc' } as unknown as KeyspaceMapping;
  await expect(
    walkIndex(client, { prefix: 'p:', cluster: false }, mapping, 'values', place, () => true),
  ).rejects.toMatchObject({ code: 'STORE_OPERATION_FAILED' });
});
