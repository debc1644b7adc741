/**
 * The CLI's cosmos: opener against the in-process server: opening writes nothing (plan --check must
 * not create a database), apply creates what is missing, and a bad endpoint is a LifespanError.
 */
import 'reflect-metadata';
import { connect, Entity, Key, LifespanError, ModelBuilder, TimeToLive } from '../../src';
import { openCosmosUrl } from '../../src/providers/cosmos/from-url';
import { describeStore } from '../harness/stores';
import { localCosmos } from './fixtures';

@Entity('sessions')
@TimeToLive(3600)
class UrlSession {
  @Key() id = '';
}
const model = new ModelBuilder().entity(UrlSession).build();

/** Runs `body` with COSMOS_ENDPOINT / COSMOS_KEY set, restoring what was there. */
async function withEnv<T>(env: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('openCosmosUrl without a server', () => {
  it.each(['not a url', 'ftp://127.0.0.1:8081', '127.0.0.1:8081'])(
    'a bad COSMOS_ENDPOINT (%s) is a LifespanError, not a TypeError, and does not echo the value',
    async (endpoint) => {
      const failure = await withEnv({ COSMOS_ENDPOINT: endpoint, COSMOS_KEY: 'k' }, () =>
        openCosmosUrl('cosmos:app'),
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(LifespanError);
      expect(failure).toMatchObject({ code: 'STORE_BAD_URL' });
      expect((failure as Error).message).not.toContain(endpoint);
    },
  );
});

describeStore('cosmos', 'openCosmosUrl (in-process server)', () => {
  const fixture = localCosmos();
  const env = () => ({ COSMOS_ENDPOINT: fixture.cosmos().endpoint, COSMOS_KEY: 'url-test-key' });

  it('opening and planning write nothing; apply() creates the database and its containers', async () => {
    const id = `from_url_${process.pid}`;
    const database = fixture.cosmos().client.database(id);
    const opened = await withEnv(env(), () => openCosmosUrl(`cosmos:${id}?selfSigned=true`));
    try {
      expect(opened.secrets).toEqual(['url-test-key']);
      const db = await connect(model, opened.store);
      const plan = await db.plan({ counts: true });
      expect(plan.steps.map((s) => s.action)).toEqual(['create-database', 'create-container']);
      await expect(database.read()).rejects.toMatchObject({ code: 404 });

      expect((await db.apply(plan)).applied).toHaveLength(2);
      expect((await database.container('sessions').read()).resource?.defaultTtl).toBe(3600);
      expect((await db.plan()).steps).toEqual([]);
    } finally {
      await opened.dispose();
    }
  });
});
