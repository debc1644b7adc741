/**
 * Issue 26: explain() states per store how update(), delete({ ifVersion }), getOrInsert() and
 * patch() are done natively and what each does to a record's remaining life.
 */
import 'reflect-metadata';
import { Entity, explain, Field, Key, ModelBuilder, TimeToLive, Version } from '../../src';
import { CONDITIONAL_WRITES } from '../../src/explain/entry';

@Entity('cw_explain')
@TimeToLive({ ttl: 3600, perWrite: true })
class Versioned {
  @Key() id = '';
  @Field() text = '';
  @Version() version = 0;
}

const model = new ModelBuilder().entity(Versioned).build();
const report = explain(model, { stores: ['relational', 'cassandra', 'cosmos', 'mongodb', 'redis'] });
const rows = (store: string) => report.entries.find((e) => e.store === store)?.conditionalWrites ?? [];
const row = (store: string, operation: string) => rows(store).find((r) => r.operation === operation);

test('every store lists every conditional write, in one order', () => {
  for (const entry of report.entries) {
    expect(entry.conditionalWrites?.map((r) => r.operation)).toEqual([...CONDITIONAL_WRITES]);
  }
});

test('each store names its native conditional write', () => {
  expect(row('cassandra', 'update')?.how).toMatch(/IF version = \?/);
  expect(row('cassandra', 'update')?.how).toMatch(/Paxos round.*do not mix it with plain writes/);
  expect(row('cassandra', 'getOrInsert')?.how).toMatch(/IF NOT EXISTS/);
  expect(row('cosmos', 'update')?.how).toMatch(/If-Match/);
  expect(row('mongodb', 'update')?.how).toMatch(/version: n/);
  expect(row('redis', 'getOrInsert')?.how).toMatch(/SET key value NX .*GET/);
  expect(row('relational', 'update')?.how).toMatch(/WHERE <key> AND version = \?/);
});

test("what a patch does to the remaining life, per store: 'keep' by default, exactly or to the second", () => {
  expect(row('cosmos', 'patch')?.expiry).toMatch(/resets _ts.*\/ttl to the item's remaining seconds/);
  expect(row('redis', 'patch')?.expiry).toMatch(/KEEPTTL/);
  expect(row('mongodb', 'patch')?.expiry).toMatch(/'keep' by default: expiresAt is not written/);
  expect(row('cassandra', 'patch')?.how).toMatch(/would give those cells their own expiry/);
  expect(row('cassandra', 'patch')?.expiry).toMatch(/TTL the row's cells have left/);
});

test('the markdown report carries the table', () => {
  expect(report.toMarkdown()).toContain('| conditional write | how | remaining life |');
});
