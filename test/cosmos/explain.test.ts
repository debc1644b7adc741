import { explain } from '../../src';
import type { ExplainEntry } from '../../src';
import { cosmosExplainer } from '../../src/providers/cosmos';
import { model } from '../../examples/models';

const entries = cosmosExplainer.explain(model);
const entry = (name: string) => entries.find((e) => e.entity === name) as ExplainEntry;

describe('cosmos explain (examples/models.ts)', () => {
  it('explains the seed example in Cosmos terms', () => {
    const session = entry('Session');
    expect(session).toMatchObject({
      collection: 'sessions',
      store: 'cosmos',
      mechanism: 'container-ttl',
      seconds: 3600,
      countsFrom: 'last-write',
      expiredVisibleUntilDeleted: false,
      changeEffect: { kind: 'retroactive' },
      warnings: [],
    });
    expect(session.text).toMatch(
      /^sessions: container-level DefaultTimeToLive 3600, counts from each item's last write \(_ts\)/,
    );
    expect(session.text).toContain('expired items disappear from queries at once');
    expect(session.text).toContain('physically deleted in the background with spare RUs');
    expect(session.text).toContain('per the Azure Cosmos DB documentation');
    expect(session.materializedBy.commands).toEqual([
      "database.containers.createIfNotExists({ id: 'sessions', partitionKey: { paths: ['/id'] }, defaultTtl: 3600 })",
    ]);
  });

  it('warns that a TTL anchored on a date member counts from the last write instead', () => {
    expect(entry('Visit').warnings).toEqual([
      expect.stringMatching(/anchored on lastSeenAt.*counts from each item's last write \(_ts\), not from lastSeenAt/),
    ]);
    // The conventional @CreatedAt anchor of the seed example is not an explicit choice: no warning.
    expect(entry('Session').warnings).toEqual([]);
  });

  it('lists per-write support: native n/default/never, keep and extend done exactly by lifespan, only when declared', () => {
    const support = (name: string) => Object.fromEntries(entry(name).perWrite.map((r) => [r.value, r.support]));
    expect(support('Cart')).toEqual({
      duration: 'native',
      default: 'native',
      never: 'native',
      keep: 'emulated',
      extend: 'emulated',
      at: 'emulated',
    });
    expect(support('Session')).toEqual({
      duration: 'unsupported',
      default: 'native',
      never: 'unsupported',
      keep: 'unsupported',
      extend: 'unsupported',
      at: 'unsupported',
    });
    expect(entry('Cart').perWrite.find((r) => r.value === 'never')?.how).toBe('item ttl: -1');
  });

  it('explains the three container states: n, -1 (on, no default), absent (off)', () => {
    expect(entry('Cart').text).toContain('DefaultTimeToLive 604800');
    expect(entry('CacheEntry').text).toContain('DefaultTimeToLive -1 (TTL on, no default)');
    expect(entry('AuditLog')).toMatchObject({ mechanism: 'none', countsFrom: null, seconds: null });
    expect(entry('AuditLog').text).toContain('no DefaultTimeToLive on the container (TTL off)');
    expect(entry('AuditLog').materializedBy.commands[0]).not.toContain('defaultTtl');
  });

  it('names the partition key path of a partition + clustering key', () => {
    expect(entry('Reading').materializedBy.text).toContain('partition key /sensorId');
  });

  it('says what hideExpired adds when the store is opened with it', () => {
    const hidden = cosmosExplainer.explain(model, { hideExpired: true });
    expect(hidden[0]?.limits.some((l) => l.startsWith('hideExpired'))).toBe(true);
    expect(entries[0]?.limits.some((l) => l.startsWith('hideExpired'))).toBe(false);
  });

  it('renders the same through explain() (golden text and JSON)', () => {
    const report = explain(model, { stores: ['cosmos'] });
    expect(report.entries).toEqual(entries);
    expect(report.toText()).toMatchSnapshot('text');
    expect(JSON.parse(JSON.stringify(report.toJSON()))).toMatchSnapshot('json');
  });
});
