/**
 * Issue 28: one step tag. Every store names a payload's kind `op`; a plan saved when Cosmos DB
 * and Redis named it `kind` is still read (plans are plain data a user may keep).
 */
import { checkPlan } from '../../src/core/plan-gate';
import { COSMOS_STEPS } from '../../src/providers/cosmos/steps';
import { redisSteps } from '../../src/providers/redis/steps';
import { CASSANDRA_STEPS } from '../../src/providers/cassandra/steps';
import { MONGODB_STEPS } from '../../src/providers/mongodb/steps';
import { RELATIONAL_STEPS } from '../../src/providers/relational/steps';
import type { PlanStep } from '../../src';

const step = (payload: unknown): PlanStep => ({
  entity: 'Session',
  collection: 'app',
  action: 'create-database',
  class: 'additive',
  summary: 'create database app',
  command: '',
  payload,
});

test('every store tags its steps by op', () => {
  const tags = [COSMOS_STEPS, redisSteps('app:'), CASSANDRA_STEPS, MONGODB_STEPS, RELATIONAL_STEPS].map(
    (rules) => rules.discriminant,
  );
  expect(new Set(tags)).toEqual(new Set(['op']));
});

test('a saved Cosmos plan tagged by kind is read as op', () => {
  const plan = { store: 'cosmos', target: 'x', steps: [step({ kind: 'create-database', id: 'app' })] };
  const [checked] = checkPlan(COSMOS_STEPS, plan, {}, 'app');
  expect(checked?.payload).toEqual({ op: 'create-database', id: 'app' });
});

test('a saved Redis plan tagged by kind is read as op', () => {
  const payload = { kind: 'set-default-ttl', collection: 'sessions', from: 'none', to: 60 };
  const plan = { store: 'redis', target: 'x', steps: [{ ...step(payload), action: 'set-default-ttl' }] };
  const [checked] = checkPlan(redisSteps('app:'), plan, {}, undefined);
  expect(checked?.payload).toEqual({ op: 'set-default-ttl', collection: 'sessions', from: 'none', to: 60 });
});
