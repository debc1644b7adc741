/**
 * explain() checked claim by claim against what the in-process Cosmos server can show (as
 * test/cassandra/explain.test.ts + the live suites do for Cassandra): the container each entry says
 * it creates, the item ttl property each per-write row says it writes, the _ts arithmetic of "counts
 * from each item's last write", and the hideExpired limit. Claims about the service's own expiry
 * cannot be shown by this server (it never expires anything): they carry the "to verify on a real
 * account" qualifier, which explain-qualifiers.test.ts checks.
 */
import 'reflect-metadata';
import type { Database } from '@azure/cosmos';
import { connect, UnsupportedTtlError, type ExplainEntry, type StoreContext } from '../../src';
import { CosmosStore } from '../../src/providers/cosmos';
import { CacheEntry, Cart, model, Session } from '../../examples/models';
import { describeStore } from '../harness/stores';
import { localCosmos, rawItem } from './fixtures';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What an entry's createIfNotExists command says, parsed from its text. */
function commanded(entry: ExplainEntry) {
  const command = entry.materializedBy.commands[0] ?? '';
  const match =
    /createIfNotExists\(\{ id: '([^']+)', partitionKey: \{ paths: \['([^']+)'\] \}(?:, defaultTtl: (-?\d+))? \}\)/.exec(
      command,
    );
  if (!match) throw new Error(`unexpected command text: ${command}`);
  return { id: match[1], path: match[2], defaultTtl: match[3] === undefined ? undefined : Number(match[3]) };
}

const build = {
  Session: (id: string) => Object.assign(new Session(), { id, payload: 'p' }),
  Cart: (id: string) => Object.assign(new Cart(), { id, items: [] }),
  CacheEntry: (id: string) => Object.assign(new CacheEntry(), { key: id, value: 'v' }),
} as const;
const classes = { Session, Cart, CacheEntry } as const;
type Name = keyof typeof build;

describeStore('cosmos', 'cosmos explain, claim by claim (in-process server)', () => {
  const fixture = localCosmos();
  let database: Database;
  let db: StoreContext;

  beforeAll(async () => {
    database = await fixture.freshDatabase();
    db = await connect(model, new CosmosStore({ database }));
    await db.ensureCollections();
  });

  test('each entry names the container it creates: id, partition key and DefaultTimeToLive, as read back', async () => {
    for (const entry of db.explain().entries) {
      const said = commanded(entry);
      const { resource } = await database.container(entry.collection).read();
      expect({ id: resource?.id, path: resource?.partitionKey?.paths?.[0], defaultTtl: resource?.defaultTtl }).toEqual(
        said,
      );
      expect(entry.materializedBy.text).toContain(`partition key ${said.path}`);
      if (said.defaultTtl === undefined) {
        expect(entry).toMatchObject({ mechanism: 'none', countsFrom: null });
        expect(entry.text).toContain('no DefaultTimeToLive on the container (TTL off)');
      } else {
        expect(entry).toMatchObject({ mechanism: 'container-ttl', countsFrom: 'last-write' });
        expect(entry.text).toContain(`DefaultTimeToLive ${said.defaultTtl}`);
        if (said.defaultTtl > 0) expect(entry.seconds).toBe(said.defaultTtl);
      }
    }
  });

  test('each per-write row does what it says: the item ttl property written, or UnsupportedTtlError and nothing', async () => {
    const values = {
      duration: 90,
      default: 'default',
      never: 'never',
      keep: 'keep',
      extend: { extend: 120 },
      at: { at: new Date(Date.now() + 3600_000) },
    } as const;
    for (const name of Object.keys(build) as Name[]) {
      const entry = db.explain().entries.find((e) => e.entity === name) as ExplainEntry;
      const repo = db.repository(classes[name] as new () => object);
      for (const row of entry.perWrite) {
        const id = `pw-${row.value}`;
        const outcome = await repo.upsert(build[name](id), { ttl: values[row.value] }).then(
          () => 'written',
          (e: unknown) => (e instanceof UnsupportedTtlError ? 'unsupported' : String(e)),
        );
        const raw = await rawItem(database, entry.collection, id);
        if (row.support === 'unsupported') {
          expect([name, row.value, outcome, raw]).toEqual([name, row.value, 'unsupported', undefined]);
          continue;
        }
        expect([name, row.value, outcome]).toEqual([name, row.value, 'written']);
        if (row.value === 'duration') expect([row.how, raw?.ttl]).toEqual([expect.stringContaining('item ttl: n'), 90]);
        if (row.value === 'never') expect([row.how, raw?.ttl]).toEqual(['item ttl: -1', -1]);
        if (row.value === 'default') {
          expect(row.how).toMatch(/^no ttl property/);
          expect(raw).not.toHaveProperty('ttl');
        }
        // keep / extend on a new item: "a new … item gets no ttl" / "ttl = max(remaining, n)"
        if (row.value === 'keep') expect(raw).not.toHaveProperty('ttl');
        if (row.value === 'extend') expect(raw?.ttl).toBe(120);
        // The seconds from the (estimated) server clock to the instant, rounded up (time passes on a loaded machine).
        if (row.value === 'at') {
          const left = (values.at.at.getTime() - Date.now()) / 1000;
          expect(Math.abs((raw?.ttl as number) - left)).toBeLessThanOrEqual(2);
        }
      }
    }
  });

  test("'counts from each item's last write (_ts)' in whole seconds: ttl() is _ts + ttl - now, and every write resets _ts", async () => {
    const entry = db.explain().entries.find((e) => e.entity === 'Cart') as ExplainEntry;
    expect(entry.text).toContain("counts from each item's last write (_ts)");
    expect(entry.limits).toContain('whole seconds: _ts has a resolution of one second');
    expect(entry.limits).toContain(
      'every write (create, upsert, replace, patch, setTtl) resets _ts and restarts the countdown',
    );
    const carts = db.repository(Cart);
    await carts.upsert(build.Cart('ts'), { ttl: 300 });
    const first = await rawItem(database, 'carts', 'ts');
    expect(Number.isInteger(first?._ts)).toBe(true);
    const left = (await carts.ttl('ts')) as number;
    const now = Math.floor(Date.now() / 1000);
    expect(Math.abs(left - ((first?._ts as number) + 300 - now))).toBeLessThanOrEqual(1);

    await sleep(2100);
    expect(await carts.ttl('ts')).toBeLessThanOrEqual(298);
    expect(await carts.setTtl('ts', 300)).toBe(true); // a patch is a write: _ts moves, the countdown restarts
    const patched = await rawItem(database, 'carts', 'ts');
    expect(patched?._ts).toBeGreaterThanOrEqual((first?._ts as number) + 2);
    expect(await carts.ttl('ts')).toBeGreaterThanOrEqual(299);
    await sleep(1100);
    await carts.upsert(build.Cart('ts')); // back on the container default, counted from this write
    const rewritten = await rawItem(database, 'carts', 'ts');
    expect(rewritten?._ts).toBeGreaterThan(patched?._ts as number);
    expect(await carts.ttl('ts')).toBeGreaterThanOrEqual(604799);
  });

  test('the hideExpired limit: items past _ts + ttl are hidden from every read by lifespan, judged by the server clock', async () => {
    const hiding = await connect(model, new CosmosStore({ database, hideExpired: true }));
    const entry = hiding.explain().entries.find((e) => e.entity === 'Cart') as ExplainEntry;
    expect(entry.limits.some((l) => l.startsWith('hideExpired: lifespan also hides items past _ts + ttl'))).toBe(true);
    const carts = hiding.repository(Cart);
    await carts.upsert(build.Cart('brief'), { ttl: 1 });
    await carts.upsert(build.Cart('stays'), { ttl: 600 });
    expect(await carts.exists('brief')).toBe(true);
    await sleep(2100);
    expect(await carts.get('brief')).toBeUndefined();
    expect(await carts.exists('brief')).toBe(false);
    expect((await carts.getMany(['brief', 'stays'])).map((c) => c.id)).toEqual(['stays']);
    expect((await carts.find()).some((c) => c.id === 'brief')).toBe(false);
    // The server itself still holds and returns it: the hiding is lifespan's, as the limit says.
    expect(await rawItem(database, 'carts', 'brief')).toMatchObject({ id: 'brief', ttl: 1 });
    expect(await db.repository(Cart).exists('brief')).toBe(true);
  });
});
