/**
 * Contract (issue 26): expiry on findPage / iterate / deleteMany. Each page is judged at its own
 * "now": on the stores whose clock a test sets (relational emulation's injected clock, the MongoDB
 * fake's `now`, whose TTL monitor never runs here) a record expires exactly at its instant between
 * two pages, and deleteMany skips an expired-but-stored record (it stays for the purge / monitor).
 * On Redis and Cassandra the store's own expiry, in real time. (The Cosmos protocol server never
 * expires items; a real account hides them.)
 */
import { ids, item, Item, pageModel } from './page-models';
import { CONTRACT_STORES, forEachClockedStore, forEachStore } from './stores';

const prefix = `px${process.pid % 10000}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachClockedStore(
  'findPage / iterate / deleteMany at an expiry instant',
  pageModel(`${prefix}k`),
  (store, opened) => {
    const items = () => opened().db.repository(Item);
    // Every test moves the store's clock: it goes back to where it was even when a test fails.
    let start = 0;
    beforeEach(() => {
      start = opened().clock.nowMs;
    });
    afterEach(() => opened().clock.at(start));

    test('a record expires between two pages exactly at its instant (inclusive), judged at the second page', async () => {
      const { clock } = opened();
      for (const id of ids('b', 6)) await items().insert(item(id, 'b'), { ttl: id === 'b04' ? 60 : 3600 });
      const first = await items().findPage({ group: 'b' }, { limit: 3 });
      expect(first.items.map((i) => i.id)).toEqual(['b00', 'b01', 'b02']);
      clock.at(start + 59_999);
      const before = await items().findPage({ group: 'b' }, { limit: 3, cursor: first.cursor as string });
      expect(before.items.map((i) => i.id)).toEqual(['b03', 'b04', 'b05']);
      clock.at(start + 60_000);
      const at = await items().findPage({ group: 'b' }, { limit: 3, cursor: first.cursor as string });
      expect(at.items.map((i) => i.id)).toEqual(['b03', 'b05']);
      expect(at.cursor).toBeUndefined();
    });

    test('a record that expires mid-iteration stops appearing', async () => {
      const { clock } = opened();
      for (const id of ids('m', 6)) await items().insert(item(id, 'm'), { ttl: id === 'm00' ? 3600 : 10 });
      const seen: string[] = [];
      for await (const found of items().iterate({ group: 'm' }, { pageSize: 2 })) {
        seen.push(found.id);
        // After the first page (m00, m01) every record but m00 is due.
        if (seen.length === 2) clock.at(start + 10_000);
      }
      expect(seen).toEqual(['m00', 'm01']);
    });

    test('deleteMany skips an expired-but-stored record, which stays stored for the purge or the TTL monitor', async () => {
      const { clock, raw } = opened();
      await items().insert(item('x-due', 'x'), { ttl: 60 });
      await items().insert(item('x-live', 'x'), { ttl: 3600 });
      clock.at(start + 60_000);
      expect(await items().deleteMany({ group: 'x' })).toBe(1);
      const collection = `${prefix}k_item`;
      const stored = raw.knex
        ? ((await raw.knex(collection).where({ group: 'x' }).select('id')) as Array<{ id: string }>).map((r) => r.id)
        : (raw.memory?.documents(collection) ?? []).filter((d) => d['group'] === 'x').map((d) => String(d['_id']));
      expect(stored).toEqual(['x-due']);
      clock.at(start);
      // The row was never deleted: back before its instant it is live again.
      expect(await items().exists('x-due')).toBe(true);
    });
  },
);

forEachStore(
  'findPage / iterate / deleteMany over the store’s own expiry',
  pageModel(`${prefix}r`),
  `${prefix}r`,
  (_store, db) => {
    const items = () => db().repository(Item);

    test('records that expire mid-iteration stop appearing; deleteMany does not count them', async () => {
      const short = ids('s', 4);
      const long = ids('l', 3);
      for (const id of short) await items().insert(item(id, 'z'), { ttl: 1 });
      for (const id of long) await items().insert(item(id, 'z'), { ttl: 3600 });
      const seen: string[] = [];
      for await (const found of items().iterate({ group: 'z' }, { pageSize: 1 })) {
        if (seen.length === 0) await sleep(2_200);
        seen.push(found.id);
      }
      // The first record was read before the others expired; no short-lived one after it.
      const [first, ...rest] = seen;
      expect(rest.filter((id) => short.includes(id))).toEqual([]);
      expect(new Set(seen.filter((id) => long.includes(id)))).toEqual(new Set(long));
      expect(first).toBeDefined();
      for (const id of ids('t', 3)) await items().insert(item(id, 'y'), { ttl: 1 });
      await items().insert(item('t-live', 'y'), { ttl: 3600 });
      await sleep(2_200);
      expect(await items().deleteMany({ group: 'y' })).toBe(1);
    });
  },
  CONTRACT_STORES.filter((s) => s.can.realTimeExpiry).map((s) => s.name),
);
