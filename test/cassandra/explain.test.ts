/**
 * Golden explain() output for the example models on Cassandra (text and JSON), plus the claims the
 * live tests check (test/cassandra/*.live.test.ts) spelled out one by one.
 */
import 'reflect-metadata';
import model from '../../examples/models';
import { Entity, Field, Key, TimeToLive, explain } from '../../src';
import { cassandraExplainer } from '../../src/providers/cassandra';
import { build } from './fixtures';

const now = () => new Date('2026-01-01T00:00:00Z');
const report = explain(model, { stores: ['cassandra'], cassandra: { now } });
const entry = (entity: string) => report.entries.find((e) => e.entity === entity)!;

test('text golden', () => {
  expect(report.toText()).toMatchSnapshot();
});

test('JSON golden', () => {
  expect(JSON.parse(report.render('json'))).toMatchSnapshot();
});

test('markdown renders every entity with its command', () => {
  const md = report.toMarkdown();
  for (const e of report.entries) expect(md).toContain(`### ${e.entity} → \`${e.collection}\``);
  expect(md).toContain('WITH default_time_to_live = 3600');
});

test('the seed example: table default, per cell, from each write; USING TTL overrides; gone at once, purged after gc_grace', () => {
  const session = entry('Session');
  expect(session).toMatchObject({
    store: 'cassandra',
    collection: 'sessions',
    mechanism: 'table-default-ttl',
    seconds: 3600,
    countsFrom: 'last-write',
    expiredVisibleUntilDeleted: false,
    deletion: { by: 'compaction' },
    changeEffect: { kind: 'new-writes-only' },
  });
  expect(session.text).toMatch(
    /^sessions: rows expire 3600s after each write \(table default_time_to_live = 3600, stamped per cell at each write/,
  );
  // Session does not declare perWrite: per-write TTLs are refused, as on every store.
  expect(session.text).toContain('Writes cannot carry their own TTL (perWrite is not declared)');
  expect(entry('Cart').text).toContain('A per-write USING TTL n overrides it');
  expect(session.text).toContain('Expired cells stop being returned at once.');
  expect(session.text).toContain(
    'affects new writes only; existing cells keep the expiry stamped when they were written',
  );
  expect(session.text).toContain('not the row marker');
  expect(session.perWrite.map((r) => [r.value, r.support])).toEqual([
    ['duration', 'unsupported'],
    ['default', 'native'],
    ['never', 'unsupported'],
    ['keep', 'unsupported'],
    ['extend', 'unsupported'],
    ['at', 'unsupported'],
  ]);
  expect(entry('Cart').perWrite.map((r) => [r.value, r.support])).toEqual([
    ['duration', 'native'],
    ['default', 'native'],
    ['never', 'native'],
    ['keep', 'unsupported'],
    ['extend', 'unsupported'],
    ['at', 'emulated'],
  ]);
  expect(session.warnings).toEqual([]);
});

test('an entity anchored on a date member is warned that Cassandra counts from each write', () => {
  expect(entry('Visit').warnings).toEqual([
    'the TTL is declared to count from lastSeenAt, but Cassandra counts from each write of the row: a row expires 3600s after it was last written, whatever lastSeenAt holds',
  ]);
  expect(entry('Cart').warnings).toEqual([]);
});

test('per-write only needs no table option; no TTL at all says rows do not expire', () => {
  const cache = entry('CacheEntry');
  expect(cache).toMatchObject({ mechanism: 'none', seconds: null, countsFrom: 'last-write' });
  expect(cache.materializedBy.commands[0]).not.toContain('default_time_to_live');
  expect(cache.text).toMatch(/^cache_entries: rows expire only when a write says so/);
  expect(entry('AuditLog')).toMatchObject({ mechanism: 'none', seconds: null, countsFrom: null });
  expect(entry('AuditLog').text).toMatch(/^audit_log: rows do not expire/);
});

test('options: keyspace-qualified commands, another ceiling, gc_grace_seconds', () => {
  const [session] = cassandraExplainer.explain(model, {
    now,
    keyspace: 'app',
    expirationCeiling: new Date('2106-02-07T06:28:13Z'),
    gcGraceSeconds: 3600,
  });
  expect(session?.materializedBy.commands[0]).toMatch(/^CREATE TABLE IF NOT EXISTS "app"\."sessions"/);
  expect(session?.limits).toContain(
    'now + TTL must not pass 2106-02-07T06:28:13Z (the expiration ceiling of Cassandra 5.0 with storage_compatibility_mode NONE); the node rejects such writes',
  );
  expect(session?.text).toContain('gc_grace_seconds = 3600 s (as given to explain())');
  // gc_grace_seconds is stated once, in the cluster paragraph.
  expect(session?.text.match(/gc_grace_seconds = \d+|gc_grace_seconds \(\d+/g)).toEqual(['gc_grace_seconds = 3600']);
});

test('a default close to the 2038 ceiling warns when writes relying on it will start failing', () => {
  @Entity('archives')
  @TimeToLive('3650d')
  class Archive {
    @Key() id = '';
    @Field() body = '';
  }
  const [archive] = cassandraExplainer.explain(
    build((b) => b.entity(Archive)),
    { now },
  );
  expect(archive?.warnings).toEqual([
    'writes relying on default_time_to_live = 315360000 will be rejected after 2028-01-22T03:14:06Z, when now + 315360000 s passes the expiration ceiling 2038-01-19T03:14:06Z',
  ]);
});

test('problems reach explain() as one ModelError naming the store', () => {
  @Entity('counted')
  @TimeToLive('1h')
  class Counted {
    @Key() id = '';
    @Field({ type: 'counter' }) n = 0;
  }
  expect(() =>
    explain(
      build((b) => b.entity(Counted)),
      { stores: ['cassandra'] },
    ),
  ).toThrow(/Counted \[cassandra\]: a table with counter columns cannot expire/);
});

test('a counter table explains that counters do not expire', () => {
  @Entity('page_views')
  class PageViews {
    @Key() page = '';
    @Field({ type: 'counter' }) views = 0;
  }
  const [views] = cassandraExplainer.explain(
    build((b) => b.entity(PageViews)),
    { now },
  );
  expect(views).toMatchObject({ mechanism: 'none', seconds: null, countsFrom: null, changeEffect: { kind: 'none' } });
  expect(views?.text).toMatch(/^page_views: counters do not expire/);
  expect(views?.perWrite.filter((r) => r.support === 'native').map((r) => r.value)).toEqual(['default']);
});
