import { renderPlanText } from '../../src';
import type { ContainerSpec } from '../../src/providers/cosmos/compile';
import type { LiveContainer } from '../../src/providers/cosmos/inspect';
import { createDatabaseStep, planSteps, withAffectedCount } from '../../src/providers/cosmos/plan';

const spec = (defaultTtl: number | null, partitionKeyPath = '/id'): ContainerSpec => ({
  id: 'sessions',
  partitionKeyPath,
  defaultTtl,
  entities: ['Session'],
});
const live = (defaultTtl: number | null, paths = ['/id']): LiveContainer => ({
  id: 'sessions',
  exists: true,
  partitionKeyPaths: paths,
  defaultTtl,
  etag: 'e',
  definition: { id: 'sessions', partitionKey: { paths } },
});
const missing: LiveContainer = {
  id: 'sessions',
  exists: false,
  partitionKeyPaths: [],
  defaultTtl: null,
  etag: undefined,
  definition: {},
};

describe('cosmos plan (pure diff)', () => {
  it('creates a missing container with its defaultTtl (additive)', () => {
    const [step, ...rest] = planSteps([spec(3600)], [missing]);
    expect(rest).toEqual([]);
    expect(step).toMatchObject({ action: 'create-container', class: 'additive', entity: 'Session' });
    expect(step?.command).toContain('defaultTtl: 3600');
  });

  it('is empty when the container matches', () => {
    expect(planSteps([spec(3600)], [live(3600)])).toEqual([]);
    expect(planSteps([spec(null)], [live(null)])).toEqual([]);
  });

  it('changes defaultTtl in place with a retroactive, not yet verified effect', () => {
    const [step] = planSteps([spec(60)], [live(3600)]);
    expect(step).toMatchObject({
      action: 'set-default-ttl',
      class: 'in-place',
      ttl: { from: 3600, to: 60 },
      effect: { kind: 'retroactive', verified: false },
      payload: { op: 'set-default-ttl', container: 'sessions', from: 3600, to: 60 },
    });
    expect(step?.effect?.text).toContain('items last written more than 60s ago expire at once');
    expect(step?.effect?.text).toContain('per the Azure Cosmos DB documentation');
    expect(step?.command).toContain('replace({ ...resource, defaultTtl: 60 })');
  });

  it('turning TTL off removes defaultTtl and says item ttl values stop applying', () => {
    const [step] = planSteps([spec(null)], [live(3600)]);
    expect(step).toMatchObject({ action: 'remove-default-ttl', class: 'in-place', ttl: { from: 3600, to: null } });
    expect(step?.summary).toContain('item ttl values stop applying');
    expect(step?.command).toContain('defaultTtl removed');
  });

  it('describes turning TTL on and a longer TTL differently', () => {
    expect(planSteps([spec(60)], [live(null)])[0]?.effect?.text).toMatch(/^TTL turns on/);
    expect(planSteps([spec(7200)], [live(3600)])[0]?.effect?.text).toContain('they live longer');
    expect(planSteps([spec(-1)], [live(3600)])[0]?.effect?.text).toContain('stop expiring');
  });

  it('reports a partition key change as a conflict, never a drop', () => {
    const steps = planSteps([spec(3600)], [live(3600, ['/tenant'])]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatchObject({ action: 'partition-key-conflict', class: 'conflict' });
    expect(steps[0]?.summary).toContain('never drops');
    expect(steps[0]?.command).toMatch(/^\/\/ not run/);
  });

  it('creates a missing database as an additive step of its own', () => {
    expect(createDatabaseStep('app')).toMatchObject({
      action: 'create-database',
      class: 'additive',
      entity: null,
      collection: 'app',
      command: "client.databases.createIfNotExists({ id: 'app' })",
      payload: { op: 'create-database', id: 'app' },
    });
  });

  it('adds the counted items and says the count used the server clock', () => {
    const [step] = planSteps([spec(60)], [live(3600)]);
    const counted = withAffectedCount(step as never, 4, 1_800_000_000);
    expect(counted.effect).toMatchObject({ affected: 4 });
    expect(counted.effect?.text).toContain(
      '4 stored item(s) expire at once (counted with the server clock, now = 2027-01-15T08:00:00.000Z)',
    );
    const text = renderPlanText({ store: 'cosmos', target: 'db', steps: [counted] });
    expect(text).toContain('TTL 1h → 1m (3600 s → 60 s)');
    expect(text).toContain('(4 stored records affected)');
  });
});
