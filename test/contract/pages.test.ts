/**
 * Contract (issue 26): findPage() and iterate() on every store. Relational stores and MongoDB walk
 * the key (pages in key order, full but the last); Cassandra, Cosmos DB and Redis may return short
 * pages (Redis: unordered, a record may come twice), and every store ends with a page without a
 * cursor. A cursor this call did not make is CURSOR_INVALID; options are checked as find()'s.
 */
import { ErrorCodes, LifespanError, type Page, type Repository } from '../../src';
import { encodeCursor } from '../../src/runtime/cursor';
import { ids, item, Item, line, Line, pageModel } from './page-models';
import { forEachStore, type ContractStore } from './stores';

const prefix = `pg${process.pid % 10000}`;

/** Every page of one walk, with a bound on pages so a cursor that never ends fails the test. */
async function walk<T>(repo: Repository<T>, where: Partial<T>, limit: number): Promise<Page<T>[]> {
  const pages: Page<T>[] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.findPage(where, cursor === undefined ? { limit } : { limit, cursor });
    pages.push(page);
    cursor = page.cursor;
    if (pages.length > 200) throw new Error('findPage() kept returning a cursor');
  } while (cursor !== undefined);
  return pages;
}

async function failure(call: () => Promise<unknown> | unknown): Promise<LifespanError> {
  try {
    await call();
  } catch (error) {
    return error as LifespanError;
  }
  throw new Error('expected a failure');
}

function distinct(values: readonly string[], store: ContractStore): string[] {
  // Redis's SCAN may hand a key out twice in one walk; no other store repeats a record.
  if (store.name !== 'redis') expect(new Set(values).size).toBe(values.length);
  return [...new Set(values)].sort();
}

forEachStore('findPage and iterate', pageModel(prefix), prefix, (store, db) => {
  const items = () => db().repository(Item);

  beforeAll(async () => {
    for (const id of ids('a', 25)) await items().insert(item(id, 'a'));
    for (const id of ids('b', 5)) await items().insert(item(id, 'b'));
  });

  test('findPage walks every live match once, pages hold at most the limit, the last has no cursor', async () => {
    const pages = await walk(items(), { group: 'a' }, 7);
    for (const page of pages) expect(page.items.length).toBeLessThanOrEqual(7);
    const seen = pages.flatMap((p) => p.items.map((i) => i.id));
    expect(distinct(seen, store)).toEqual(ids('a', 25));
    expect(pages.at(-1)?.cursor).toBeUndefined();
    expect(pages.flatMap((p) => p.items).every((i) => i instanceof Item && i.group === 'a')).toBe(true);
    if (store.can.orderedPages) {
      expect(pages.map((p) => p.items.length)).toEqual([7, 7, 7, 4]);
      expect(seen).toEqual(ids('a', 25));
    }
  });

  test('findPage without options reads a default page of 100; a last full page has no cursor on keyset stores', async () => {
    const page = await items().findPage({ group: 'b' });
    expect(page.items.map((i) => i.id).sort()).toEqual(ids('b', 5));
    if (store.can.orderedPages) {
      expect(page.cursor).toBeUndefined();
      const exact = await items().findPage({ group: 'b' }, { limit: 5 });
      expect(exact.items).toHaveLength(5);
      expect(exact.cursor).toBeUndefined();
    }
  });

  test('a compound key pages through one partition', async () => {
    const lines = db().repository(Line);
    for (let n = 1; n <= 12; n++) await lines.insert(line('o1', n));
    for (let n = 1; n <= 3; n++) await lines.insert(line('o2', n));
    const pages = await walk(lines, { orderId: 'o1' }, 5);
    const seen = pages.flatMap((p) => p.items.map((l) => l.line));
    expect([...new Set(seen)].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    if (store.can.orderedPages) expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // Pages of 4 over 15 rows: the page boundaries fall inside o1 and across o1 → o2.
    const all = (await walk(lines, {}, 4)).flatMap((p) => p.items.map((l) => `${l.orderId}/${l.line}`));
    const expected = [...Array.from({ length: 12 }, (_, i) => `o1/${i + 1}`), 'o2/1', 'o2/2', 'o2/3'];
    // The MongoDB fake (mingo) orders an `_id` sub-document by its sorted field names, not in
    // stored order as the server does (its $gt agrees, so its walk is still exact, only ordered otherwise).
    if (store.can.orderedPages && store.name !== 'mongodb-fake') expect(all).toEqual(expected);
    else expect(distinct(all, store)).toEqual([...expected].sort());
  });

  test('iterate yields every match page by page; a record deleted mid-iteration stops appearing', async () => {
    const repo = items();
    for (const id of ids('c', 12)) await repo.insert(item(id, 'c'));
    const seen: string[] = [];
    let deleted: string[] = [];
    // pageSize 1: the page in memory is the record just yielded, so the others are all still unread.
    for await (const found of repo.iterate({ group: 'c' }, { pageSize: 1 })) {
      seen.push(found.id);
      if (deleted.length === 0) {
        deleted = ids('c', 12)
          .filter((id) => id !== found.id)
          .slice(0, 3);
        for (const id of deleted) expect(await repo.delete(id)).toBe(true);
      }
    }
    const expected = ids('c', 12).filter((id) => !deleted.includes(id));
    expect(distinct(seen, store)).toEqual(expected);
    const all: string[] = [];
    for await (const found of repo.iterate({ group: 'a' }, { pageSize: 10 })) all.push(found.id);
    expect(distinct(all, store)).toEqual(ids('a', 25));
  });

  test('iterate walks the filter as it was when called, whatever the caller does with its object later', async () => {
    const where = { group: 'b' };
    const walk = items().iterate(where, { pageSize: 2 });
    where.group = 'a';
    const seen: string[] = [];
    for await (const found of walk) seen.push(found.id);
    expect(distinct(seen, store)).toEqual(ids('b', 5));
  });

  test('a changed, foreign or garbage cursor is CURSOR_INVALID; a non-string cursor BAD_ARGUMENT', async () => {
    const repo = items();
    const { cursor } = await repo.findPage({ group: 'a' }, { limit: 2 });
    expect(typeof cursor).toBe('string');
    const text = cursor as string;
    const at = Math.floor(text.length / 2);
    const changed = text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const lineCursor = (await db().repository(Line).findPage({}, { limit: 1 })).cursor as string;
    const scope = (storeName: string) => ({
      store: storeName,
      entity: 'Item',
      collection: `${prefix}_item`,
      where: { group: 'a' },
    });
    const refused = [
      await failure(() => repo.findPage({ group: 'a' }, { limit: 2, cursor: changed })),
      await failure(() => repo.findPage({ group: 'a' }, { limit: 2, cursor: 'garbage' })),
      await failure(() => repo.findPage({ group: 'a' }, { limit: 2, cursor: '' })),
      await failure(() => repo.findPage({ group: 'b' }, { limit: 2, cursor: text })),
      await failure(() => repo.findPage({}, { limit: 2, cursor: lineCursor })),
      await failure(() => repo.findPage({ group: 'a' }, { cursor: encodeCursor(scope('another'), 'x') })),
      // A sound envelope for this very call around a position the store cannot resume from.
      await failure(() =>
        repo.findPage({ group: 'a' }, { cursor: encodeCursor(scope(store.can.storeName), { x: 1 }) }),
      ),
    ];
    for (const error of refused) {
      expect(error).toBeInstanceOf(LifespanError);
      expect({ code: error.code, store: error.store, entity: error.entity }).toEqual({
        code: 'CURSOR_INVALID',
        store: store.can.storeName,
        entity: 'Item',
      });
    }
    expect(refused[3]?.message).toMatch(/another filter/);
    expect(refused[4]?.message).toMatch(/entity Line/);
    const notText = await failure(() => repo.findPage({ group: 'a' }, { cursor: 42 as never }));
    expect(notText.code).toBe(ErrorCodes.BAD_ARGUMENT);
  });

  test('a sound envelope around a position the store itself refuses is CURSOR_INVALID, not a store failure', async () => {
    // Positions of the right shape that only the server can refuse (relational stores and MongoDB
    // resume after any key of the key's type, so every such position is one they can resume from;
    // the Cosmos protocol server accepts any continuation token, where the service answers 400).
    const forged: Record<string, unknown> = {
      cassandra: 'deadbeef',
      redis: { c: '18446744073709551616', s: [] },
    };
    const position = forged[store.name];
    if (position === undefined) return;
    const scope = { store: store.can.storeName, entity: 'Item', collection: `${prefix}_item`, where: { group: 'a' } };
    const error = await failure(() => items().findPage({ group: 'a' }, { cursor: encodeCursor(scope, position) }));
    expect({ code: error.code, store: error.store, entity: error.entity }).toEqual({
      code: 'CURSOR_INVALID',
      store: store.can.storeName,
      entity: 'Item',
    });
  });

  test('a cursor naming a huge or odd store is refused with a short message; an overlong cursor is not decoded', async () => {
    const scope = { store: 'x'.repeat(10_000), entity: 'Item\u0000', collection: `${prefix}_item`, where: {} };
    const error = await failure(() => items().findPage({}, { cursor: encodeCursor(scope, 'p') }));
    expect(error.code).toBe('CURSOR_INVALID');
    expect(error.message.length).toBeLessThan(600);
    const long = `lsc1.${'A'.repeat(300_000)}.x`;
    const tooLong = await failure(() => items().findPage({}, { cursor: long }));
    expect(tooLong.code).toBe('CURSOR_INVALID');
    expect(tooLong.message).toMatch(/longer than/);
  });

  test('a real cursor after a long key resumes (no length limit below what the store returns)', async () => {
    const repo = items();
    // As long as the store lets a key be (MariaDB's key column and a Cosmos DB id hold 255).
    const long = (c: string) => c.repeat(['mariadb', 'cosmos'].includes(store.name) ? 200 : 5_000);
    await repo.insert(item(long('m'), 'long'));
    await repo.insert(item(long('n'), 'long'));
    const first = await repo.findPage({ group: 'long' }, { limit: 1 });
    const seen = first.items.map((i) => i.id);
    let cursor = first.cursor;
    while (cursor !== undefined) {
      const page = await repo.findPage({ group: 'long' }, { limit: 1, cursor });
      seen.push(...page.items.map((i) => i.id));
      cursor = page.cursor;
    }
    expect(distinct(seen, store)).toEqual([long('m'), long('n')]);
  });

  test.each([
    ['limit 0', { limit: 0 }],
    ['limit 1.5', { limit: 1.5 }],
    ['limit over the cap', { limit: 10_001 }],
    ['an unknown option', { lmit: 3 }],
    ['null options', null],
  ])('findPage with %s is BAD_ARGUMENT before anything is read', async (_what, options) => {
    const error = await failure(() => items().findPage({ group: 'a' }, options as never));
    expect(error).toBeInstanceOf(LifespanError);
    expect({ code: error.code, store: error.store }).toEqual({ code: 'BAD_ARGUMENT', store: store.can.storeName });
  });

  test('iterate checks its options and filter when called; findPage an unknown member and a null filter', async () => {
    for (const options of [{ pageSize: 0 }, { pageSize: 10_001 }, { size: 3 }, 7]) {
      expect(() => items().iterate({}, options as never)).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENT', store: store.can.storeName }),
      );
    }
    expect(() => items().iterate(null as never)).toThrow(expect.objectContaining({ code: 'BAD_ARGUMENT' }));
    expect((await failure(() => items().findPage(null as never))).code).toBe('BAD_ARGUMENT');
    expect((await failure(() => items().findPage({ colour: 'x' } as never))).code).toBe('UNKNOWN_MEMBER');
  });
});
