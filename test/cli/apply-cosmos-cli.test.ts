import * as fs from 'node:fs';
import * as path from 'node:path';
import { LOCAL_COSMOS_KEY, startCosmosServer, type LocalCosmos } from '../harness/cosmos';
import { describeStore } from '../harness/stores';
import { buildCli } from './build-cli';
import { fixtureProject, runCli } from './fixture-project';

/**
 * `lifespan apply` against the local Cosmos server holding real items (review of issue 12, items
 * 1 and 19): a step that makes stored items expire at once needs --allow-retroactive, and a
 * refusal for one store leaves every other configured store untouched.
 */
describeStore('cosmos', 'apply with stored Cosmos items', () => {
  let cli: ReturnType<typeof buildCli>;
  let cjs: string;
  let cosmos: LocalCosmos;
  beforeAll(async () => {
    cli = buildCli('apply-cosmos-cli');
    cjs = fixtureProject(cli.outDir, 'cjs');
    cosmos = await startCosmosServer();
  }, 120_000);
  afterAll(() => cosmos?.close());

  const env = (extra: NodeJS.ProcessEnv) => ({
    COSMOS_ENDPOINT: cosmos.endpoint,
    COSMOS_KEY: LOCAL_COSMOS_KEY,
    FIXTURE_COSMOS_DB: 'app',
    ...extra,
  });
  const defaultTtl = async () => (await cosmos.client.database('app').container('tokens').read()).resource?.defaultTtl;

  test('a refusal for one store applies nothing to any store; counted items, one consent code', async () => {
    const created = await runCli(cli.main, cjs, ['apply', '--yes', '--store', 'cosmos'], env({ FIXTURE_TTL: '1h' }));
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const container = cosmos.client.database('app').container('tokens');
    for (const id of ['a', 'b', 'c']) await container.items.create({ id, issuedAt: new Date(0).toISOString() });
    // The server stamps _ts in whole seconds: wait until the items are older than the new 1 s TTL.
    await new Promise((resolve) => setTimeout(resolve, 2500));

    const db = path.join(cjs, 'apply-two-stores.db');
    fs.rmSync(db, { force: true });
    const shorter = env({ FIXTURE_TTL: '1s', FIXTURE_DB: db });
    const refused = await runCli(cli.main, cjs, ['apply', '--yes'], shorter);
    // The first store (main, SQLite) was not touched either.
    expect(refused.stdout).not.toContain('applied');
    expect((await runCli(cli.main, cjs, ['plan', '--check', '--store', 'main'], shorter)).code).toBe(1);
    expect(await defaultTtl()).toBe(3600);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('3 stored item(s) expire at once');
    expect(refused.stderr).toContain('[PLAN_RETROACTIVE_NOT_ALLOWED]');
    expect(refused.stderr).toContain('(3 stored records affected)');
    expect(refused.stderr).toContain('--allow-retroactive');

    const allowed = await runCli(cli.main, cjs, ['apply', '--yes', '--allow-retroactive'], shorter);
    expect(allowed.stderr).toBe('');
    expect(allowed.code).toBe(0);
    expect(await defaultTtl()).toBe(1);
    expect((await runCli(cli.main, cjs, ['plan', '--check'], shorter)).code).toBe(0);
  }, 120_000);
});
