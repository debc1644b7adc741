/**
 * Issue 26: explain() states per store how update(), delete({ ifVersion }), getOrInsert() and
 * patch() are done natively and what each does to a record's remaining life. The rows are checked
 * against the model they explain (its version member, whether it has one, its TTL anchor, a
 * counter table), not against fixed wording.
 */
import 'reflect-metadata';
import { Entity, explain, Field, Key, ModelBuilder, TimeToLive, Version, type Model } from '../../src';
import { CONDITIONAL_WRITES, type ConditionalWriteRow } from '../../src/explain/entry';
import { STORE_NAMES } from '../../src/providers/registry';

@Entity('cw_explain')
@TimeToLive({ ttl: 3600, perWrite: true })
class Versioned {
  @Key() id = '';
  @Field() text = '';
  @Version() revision = 0;
}

@Entity('cw_plain')
@TimeToLive({ ttl: 3600, perWrite: true })
class Unversioned {
  @Key() id = '';
  @Field() text = '';
}

@Entity('cw_anchored')
@TimeToLive({ ttl: 3600, member: 'issuedAt' })
class Anchored {
  @Key() id = '';
  @Field({ type: 'date' }) issuedAt = new Date(0);
  @Version() version = 0;
}

@Entity('cw_counted')
class Counted {
  @Key() page = '';
  @Field({ type: 'counter' }) views = 0;
}

const STORES = STORE_NAMES;
const model = new ModelBuilder().entity(Versioned).entity(Unversioned).build();
const report = explain(model, { stores: [...STORES] });

function rowsOf(m: Model, entity: string, store: string, options: object = {}): ConditionalWriteRow[] {
  const entry = explain(m, { stores: [store as never], ...options }).entries.find((e) => e.entity === entity);
  return [...(entry?.conditionalWrites ?? [])];
}
const row = (entity: string, store: string, operation: string, m: Model = model, options: object = {}) =>
  rowsOf(m, entity, store, options).find((r) => r.operation === operation);

test('every store lists every conditional write, in one order', () => {
  for (const entry of report.entries) {
    expect(entry.conditionalWrites.map((r) => r.operation)).toEqual([...CONDITIONAL_WRITES]);
  }
});

test("the condition names the entity's own version member on every store", () => {
  for (const store of STORES) {
    for (const operation of ['update', 'delete-if-version']) {
      const how = row('Versioned', store, operation)?.how ?? '';
      expect(how).toContain('revision');
      expect(how).not.toMatch(/\bversion = \?|IF version\b|\$version/);
    }
  }
});

test('without @Version, update and delete({ ifVersion }) are not available (VERSION_NOT_DECLARED), on every store', () => {
  for (const store of STORES) {
    for (const operation of ['update', 'delete-if-version']) {
      const how = row('Unversioned', store, operation)?.how ?? '';
      expect(how).toMatch(/^not available: declare @Version\(\) on Unversioned/);
      expect(how).not.toMatch(/version = \?|IF version/);
    }
    // getOrInsert and patch work without one, and their rows describe no version condition.
    expect(row('Unversioned', store, 'patch')?.how).not.toMatch(/version/);
  }
});

test('a Cassandra counter table takes no conditional write: every row says so', () => {
  const counted = new ModelBuilder().entity(Counted).build();
  const rows = rowsOf(counted, 'Counted', 'cassandra');
  expect(rows.map((r) => r.operation)).toEqual([...CONDITIONAL_WRITES]);
  for (const r of rows) {
    expect(r.how).toMatch(/^not available: .*CASSANDRA_COUNTER_WRITE/);
    expect(r.how).not.toMatch(/IF NOT EXISTS|Paxos/);
  }
});

test("relational ttl: 'ignore': getOrInsert claims no due-row handling (nothing is due)", () => {
  const ignored = row('Versioned', 'relational', 'getOrInsert', model, { relational: { ttl: 'ignore' } })?.how ?? '';
  expect(ignored).not.toMatch(/due/);
  const emulated = row('Versioned', 'relational', 'getOrInsert', model, { relational: { ttl: 'emulate' } })?.how ?? '';
  expect(emulated).toMatch(/due/);
});

test('a patch of the TTL anchor member: the relational row says the expiry moves with it', () => {
  const anchored = new ModelBuilder().entity(Anchored).build();
  const expiry = row('Anchored', 'relational', 'patch', anchored, { relational: { ttl: 'emulate' } })?.expiry ?? '';
  expect(expiry).toMatch(/issuedAt/);
  expect(expiry).toContain(String(3600));
});

test("Cosmos patch row: the container default is replaced by the item's own ttl", () => {
  expect(row('Versioned', 'cosmos', 'patch')?.expiry).toMatch(/DefaultTimeToLive change no longer reaches it/);
  expect(row('Versioned', 'cosmos', 'patch')?.how).toMatch(/replace/);
});

test('the markdown report carries the table', () => {
  expect(report.toMarkdown()).toContain('| conditional write | how | remaining life |');
});
