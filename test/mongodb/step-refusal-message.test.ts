/**
 * A MongoDB step refused for a TTL value lifespan never sends says where and what to do once: the
 * guard's own words (its detail) go into the refusal, not its composed message with place and hint.
 */
import type { MigrationPlan } from '../../src';
import { checkedSteps } from '../../src/providers/mongodb/steps';

function planWith(command: object): MigrationPlan {
  return {
    store: 'mongodb',
    target: 'test',
    steps: [
      {
        entity: 'Session',
        collection: 'sessions',
        action: 'change-ttl',
        class: 'in-place',
        summary: 'change TTL index createdAt_1',
        command: '',
        payload: { op: 'command', command, count: null },
      },
    ],
  };
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

test.each([
  ['NaN', { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: NaN } }],
  [
    'a compound key',
    { createIndexes: 'sessions', indexes: [{ key: { a: 1, b: 1 }, name: 'a_1_b_1', expireAfterSeconds: 60 }] },
  ],
])('a step with %s names its place and its hint once', (_what, command) => {
  let message = '';
  try {
    checkedSteps(planWith(command), { allowRetroactive: true });
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toContain('carries a TTL index value lifespan never sends');
  expect(occurrences(message, '[mongodb]')).toBe(1);
  expect(occurrences(message, ' — ')).toBe(1);
});
