/**
 * An error keeps its raw detail as fields (detail, entity, member, store, hint, value); whatever
 * turns an error into a problem of a ModelError reads those fields, never the composed message.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelError, TimeToLive, TtlError } from '../../src';
import { LifespanError, ProblemList, problemOf } from '../../src/errors';
import { compileModel } from '../../src/providers/cassandra/compile';
import { CEILING_2038 } from '../../src/providers/cassandra/semantics';
import { build } from '../cassandra/fixtures';

test('message is composed from the fields; detail is what went wrong alone', () => {
  const error = new LifespanError('VALUE_INVALID', 'value 3 — the third — is not a string', {
    entity: 'Order',
    member: 'note',
    store: 'sqlite',
    hint: 'pass a string — or null',
  });
  expect(error.message).toBe('Order.note [sqlite]: value 3 — the third — is not a string — pass a string — or null');
  expect(error).toMatchObject({ detail: 'value 3 — the third — is not a string', hint: 'pass a string — or null' });
  expect(problemOf(error)).toEqual({
    code: 'VALUE_INVALID',
    message: 'value 3 — the third — is not a string',
    hint: 'pass a string — or null',
    entity: 'Order',
    member: 'note',
    store: 'sqlite',
  });
});

test('ProblemList keeps the fields of a collected error and fills the place it does not name', () => {
  const problems = new ProblemList();
  problems.collect({ entity: 'Order', member: 'ttl' }, () => {
    throw new TtlError('TTL_NO_UNIT', '5', 'TTL "5" has no unit — say which', { hint: "write '5s'" });
  });
  let error: unknown;
  try {
    problems.throwIfAny();
  } catch (e) {
    error = e;
  }
  expect((error as ModelError).problems).toEqual([
    {
      code: 'TTL_NO_UNIT',
      message: 'TTL "5" has no unit — say which',
      hint: "write '5s'",
      entity: 'Order',
      member: 'ttl',
      store: undefined,
    },
  ]);
});

test('the Cassandra compile path lists a TTL over its limits with the TtlError fields, not a parsed message', () => {
  @Entity('counted_for_decades')
  @TimeToLive(700_000_000)
  class CountedForDecades {
    @Key() id = '';
    @Field({ type: 'counter' }) n = 0;
  }
  const clock = { now: new Date('2026-01-01T00:00:00Z'), ceiling: CEILING_2038 };
  let error: unknown;
  try {
    compileModel(
      build((b) => b.entity(CountedForDecades)),
      clock,
    );
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ModelError);
  const tooLarge = (error as ModelError).problems.find((p) => p.code === 'CASSANDRA_TTL_TOO_LARGE');
  expect(tooLarge).toEqual({
    code: 'CASSANDRA_TTL_TOO_LARGE',
    message: "default_time_to_live 700000000 s is over Cassandra's maximum TTL of 630720000 s (20 years)",
    hint: 'use at most 630720000 s',
    entity: 'CountedForDecades',
    member: undefined,
    store: 'cassandra',
  });
});
