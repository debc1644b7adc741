import type { Knex } from 'knex';
import type { Model } from '../../../src';
import { RelationalStore, type RelationalSession } from '../../../src/providers/relational';
import type { TestClock } from './engines';

/** A session of its own on `knex` with TTL emulation, on `clock` or (without one) the database clock. */
export async function openSession(model: Model, knex: Knex, clock?: TestClock): Promise<RelationalSession> {
  const store = new RelationalStore({
    knex,
    ttl: 'emulate',
    ...(clock ? { clock: clock.read } : {}),
    logger: { warn: () => undefined },
  });
  return (await store.open(model)) as RelationalSession;
}
