import { useOfflineCli } from './offline-cli';

/**
 * The offline `lifespan diff` names the per-document effect family (issue 12, Build: "retroactive /
 * new-writes-only / per-document"): where each record's own date or stored expiry decides.
 */
const offline = useOfflineCli('diff-family-cli');
const { lifespan } = offline;

describe('diff names the per-document family', () => {
  test('json: a MongoDB index on createdAt is retroactive and per-document; Cosmos and Cassandra are not', async () => {
    expect((await lifespan('1h', 'snapshot')).code).toBe(0);
    const run = await lifespan('5m', 'diff', '--format', 'json');
    expect(run.code).toBe(0);
    const { plans } = JSON.parse(run.stdout) as {
      plans: { store: string; steps: { effect: { kind: string; perDocument?: boolean } }[] }[];
    };
    const of = (store: string) => plans.find((p) => p.store === store)!.steps[0]!.effect;
    expect(of('mongodb')).toMatchObject({ kind: 'retroactive', perDocument: true });
    expect(of('cosmos').kind).toBe('retroactive');
    expect(of('cosmos').perDocument).toBeUndefined();
    expect(of('cassandra').kind).toBe('new-writes-only');
    expect(of('cassandra').perDocument).toBeUndefined();
  });

  test('text and markdown show the family', async () => {
    expect((await lifespan('1h', 'snapshot', '--store', 'mongodb')).code).toBe(0);
    const text = await lifespan('5m', 'diff', '--store', 'mongodb');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('effect: retroactive, per-document: ');
    const md = await lifespan('5m', 'diff', '--store', 'mongodb', '--format', 'markdown');
    expect(md.code).toBe(0);
    expect(md.stdout).toMatch(/\| retroactive, per-document \| at apply \|/);
  });

  test('an emulated relational TTL, stamped at each write, is new-writes-only and per-document', async () => {
    expect((await lifespan('1h', 'snapshot', '--store', 'relational', '--emulate')).code).toBe(0);
    const run = await lifespan('5m', 'diff', '--store', 'relational', '--emulate', '--format', 'markdown');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/\| new-writes-only, per-document \| at deploy/);
  });
});
