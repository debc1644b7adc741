/**
 * A MongoDB plan step whose TTL values fail the guards plan() applies, or whose command has a shape
 * lifespan never sends, is refused by the plan gate as any other edited step (PLAN_BAD_STEP, naming
 * the step's entity), before anything is sent.
 */
import type { MigrationPlan } from '../../src';
import { checkPlan } from '../../src/core/plan-gate';
import type { ApplyOptions } from '../../src/providers/contract';
import { MONGODB_STEPS } from '../../src/providers/mongodb/steps';

/** What apply() judges a plan by: the one plan gate over MongoDB's step table. */
const checkedSteps = (plan: MigrationPlan, options: ApplyOptions = {}) =>
  checkPlan(MONGODB_STEPS, plan, options, undefined);

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

describe('MongoDB plan steps with TTL values or command shapes lifespan never sends', () => {
  test.each([
    ['NaN', { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: NaN } }],
    ['a string', { collMod: 'sessions', index: { keyPattern: { createdAt: 1 }, expireAfterSeconds: '60' } }],
    [
      'a compound key',
      {
        createIndexes: 'sessions',
        indexes: [{ key: { a: 1, b: 1 }, name: 'a_1_b_1', expireAfterSeconds: 60 }],
      },
    ],
    ['a collMod index that is not a document', { collMod: 'sessions', index: 'createdAt_1' }],
    ['a collMod index that is a list', { collMod: 'sessions', index: [{ expireAfterSeconds: 60 }] }],
    ['a collMod by index name', { collMod: 'sessions', index: { name: 'createdAt_1', expireAfterSeconds: 60 } }],
    ['createIndexes indexes that are not a list', { createIndexes: 'sessions', indexes: { key: { createdAt: 1 } } }],
    ['createIndexes indexes that are not documents', { createIndexes: 'sessions', indexes: [5] }],
  ])('%s: PLAN_BAD_STEP naming the entity', (_what, command) => {
    expect(() => checkedSteps(planWith(command), { allowRetroactive: true })).toThrow(
      expect.objectContaining({ code: 'PLAN_BAD_STEP', entity: 'Session' }),
    );
  });
});

/**
 * The guard's own words (its detail) go into the refusal, not its composed message: the place and
 * the hint are said once.
 */
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
