/**
 * A unit of work spread over Redis Cluster hash slots is refused before anything is sent; the
 * refusal names a few slots and counts the rest (a unit of 400 records without a partition key
 * listed all 400 keys: a message of 60 KB).
 */
import type { KeyspaceMapping } from '../../src/providers/redis/compile';
import { refuseSlotsSpread } from '../../src/providers/redis/slot-spread';

const mapping = { entity: { name: 'Memo' }, tagMembers: [] } as unknown as KeyspaceMapping;
const uses = (n: number) => Array.from({ length: n }, (_, i) => ({ mapping, key: `app:memo:m${i}` }));

function refusal(n: number): Error {
  try {
    refuseSlotsSpread(uses(n));
  } catch (error) {
    return error as Error;
  }
  throw new Error('not refused');
}

test('one slot is taken', () => {
  expect(() => refuseSlotsSpread(uses(1))).not.toThrow();
});

test('a few slots are each named', () => {
  const { message } = refusal(2);
  expect(message).toMatch(/touches 2 Redis Cluster hash slots/);
  expect(message).toContain("Memo key 'app:memo:m0'");
  expect(message).toContain("Memo key 'app:memo:m1'");
});

test('many slots: the first three named, the rest counted', () => {
  const { message } = refusal(400);
  expect(message).toMatch(/touches \d{3} Redis Cluster hash slots/);
  expect(message.match(/Memo key/g)).toHaveLength(3);
  expect(message).toMatch(/\| \d+ more slots\)/);
  expect(message.length).toBeLessThan(1000);
});

test('many partitions in one slot: three named, the rest counted', () => {
  const tagged = { entity: { name: 'Reading' }, tagMembers: [{ member: 'sensor' }] } as unknown as KeyspaceMapping;
  // One hash tag, so one slot; a second key elsewhere makes the unit span two slots.
  const same = Array.from({ length: 5 }, (_, i) => ({ mapping, key: `app:{north}:r${i}` }));
  const { message } = (() => {
    try {
      refuseSlotsSpread([...same, { mapping: tagged, key: 'app:{south}:r0' }]);
    } catch (error) {
      return error as Error;
    }
    throw new Error('not refused');
  })();
  expect(message).toMatch(/; 2 more \|/);
});
