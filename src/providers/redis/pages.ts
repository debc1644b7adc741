import { instanceOf } from '../../runtime/entity-values';
import { invalidCursor } from '../../runtime/cursor';
import { runDeleteMany, type DeleteManyRequest } from '../../runtime/delete-many';
import { pageOf, pageRequest, type PageRequest } from '../../runtime/pages';
import type { Page } from '../contract';
import { decodeRecord, parseStored, type StoredRecord } from './codec';
import type { KeyspaceMapping } from './compile';
import { call, type CallPlace, type RedisClientLike } from './gateway';
import { collectionPrefix, scanPattern } from './keys';
import { matches, whereForms } from './records';
import { mapBounded, sumBounded } from '../../runtime/bounded';
import { runScript, runScriptFor, script } from './scripts';
import { indexKeyOf, indexLayout } from './collection-index';
import { REINDEX_LUA } from './reindex-lua';
import { walkTargets } from './scan';
import { scanStep, walkPositionOf, WALK_START, type WalkPosition } from './scan-step';
import { STORE } from './semantics';

/**
 * findPage / deleteMany on Redis: one SCAN walk (on a cluster, over every primary in turn), resumed
 * from its own cursor. SCAN is unordered,
 * its steps return as many keys as they find (COUNT is a hint), and a key may come twice in one
 * walk, so a page is cut inside a step: the position is the step's SCAN cursor plus the keys of
 * that step already handed out (at most one step's worth). A page may be short or empty with a
 * cursor; expired keys are gone for Redis itself (a GET of one is nil).
 */
interface ScanPosition {
  /** The walk target (primary, in walkTargets order) of the step the page stopped in. */
  readonly n: number;
  /** The SCAN cursor of the step the page stopped in. */
  readonly c: string;
  /** Keys (after the collection prefix) of that step already returned. */
  readonly s: readonly string[];
}

export interface RedisPages {
  readonly client: RedisClientLike;
  readonly prefix: string;
  readonly mapping: KeyspaceMapping;
}

/** SCAN steps one page may take before it returns short: a sparse match does not hold a call forever. */
const MAX_STEPS_PER_PAGE = 64;

interface Read {
  readonly key: string;
  readonly text: string;
  /** Absolute expiry in ms (-1: none), read with the value in one script (deleteMany only). */
  readonly expiresAt?: string;
}

interface Match extends Read {
  readonly stored: StoredRecord;
}

interface Walk {
  readonly matched: Match[];
  readonly next: ScanPosition | undefined;
}

/**
 * Up to `limit` matching records from `from` on: SCAN steps, each step's keys read with MGET (or,
 * for deleteMany, value and expiry together), kept when they hold the filtered values.
 */
async function walk(
  p: RedisPages,
  where: Record<string, unknown>,
  from: ScanPosition | undefined,
  limit: number,
  read: (keys: string[]) => Promise<Array<Read | null>>,
): Promise<Walk> {
  const { values, forms } = whereForms(p.mapping, where);
  const pattern = scanPattern(p.prefix, p.mapping, values);
  const head = collectionPrefix(p.prefix, p.mapping);
  const place = placeOf(p, 'findPage (SCAN)');
  const matched: Match[] = [];
  // SCAN may hand a key out again in a later step of the same page: each record once per page.
  const onPage = new Set<string>();
  const targets = await walkTargets(p.client);
  let at: WalkPosition = from ? { node: from.n, cursor: from.c } : WALK_START;
  let skip = new Set(from?.s ?? []);
  for (let step = 0; step < MAX_STEPS_PER_PAGE; step++) {
    // COUNT asks for what the page still lacks, so a step seldom overshoots it (COUNT is a hint).
    const count = Math.max(limit - matched.length, 10);
    const { keys, next } = await scanStep(targets, at, { pattern, count }, place);
    const fresh = skip.size === 0 ? keys : keys.filter((k) => !skip.has(k.slice(head.length)));
    const found = fresh.length === 0 ? [] : await read(fresh);
    const stepStart = matched.length;
    for (const hit of found) {
      // Null: expired or deleted between SCAN and the read.
      if (hit === null) continue;
      const stored = parseStored(p.mapping, hit.key, hit.text);
      if (!matches(stored, forms) || onPage.has(hit.key)) continue;
      if (matched.length === limit) {
        const taken = matched.slice(stepStart).map((m) => m.key.slice(head.length));
        return { matched, next: { n: at.node, c: at.cursor, s: [...skip, ...taken] } };
      }
      matched.push({ ...hit, stored });
      onPage.add(hit.key);
    }
    if (next === undefined) return { matched, next: undefined };
    at = next;
    skip = new Set();
    if (matched.length === limit) break;
  }
  return { matched, next: { n: at.node, c: at.cursor, s: [] } };
}

function checkedPosition(p: RedisPages, raw: unknown): ScanPosition {
  const r = raw as Partial<ScanPosition> | null;
  // walkPositionOf: a primary's index and its SCAN cursor, an unsigned 64-bit number (Redis refuses any other).
  const at = typeof r === 'object' && r !== null ? walkPositionOf({ node: r.n, cursor: r.c }) : undefined;
  const ok =
    at !== undefined && BigInt(at.cursor) < 2n ** 64n && Array.isArray(r?.s) && r.s.every((k) => typeof k === 'string');
  if (!ok) throw invalidCursor('does not hold a SCAN position', { entity: p.mapping.entity.name, store: STORE });
  return { n: at.node, c: at.cursor, s: (r as ScanPosition).s };
}

function placeOf(p: RedisPages, operation: string): CallPlace {
  return { entity: p.mapping.entity.name, operation: `${operation} on '${p.mapping.collection}'` };
}

function request(p: RedisPages, where: unknown, options: unknown): PageRequest<ScanPosition> {
  const scope = { store: STORE, entity: p.mapping.entity.name, collection: p.mapping.collection };
  return pageRequest(where, options, scope, (raw) => checkedPosition(p, raw));
}

/** findPage(): the records of SCAN steps from the cursor on, up to `limit` (unordered; see above). */
export async function redisPage<T>(p: RedisPages, where: unknown, options: unknown): Promise<Page<T>> {
  const req = request(p, where, options);
  const place = placeOf(p, 'findPage (MGET)');
  const mget = async (keys: string[]) => {
    const texts = await call<Array<string | null>>(p.client, ['MGET', ...keys], place);
    return texts.map((text, i) => (text === null ? null : { key: keys[i] as string, text }));
  };
  const { matched, next } = await walk(p, req.where, req.position, req.limit, mget);
  const items = matched.map((m) => instanceOf<T>(p.mapping.entity, decodeRecord(p.mapping, m.key, m.stored)));
  return pageOf(items, next, req);
}

/** A key's value and absolute expiry (PEXPIRETIME, Redis 7.0+) read together. */
const READ_BOTH = script(`#!lua flags=no-writes
return { redis.call('GET', KEYS[1]), redis.call('PEXPIRETIME', KEYS[1]) }`);

/**
 * Deletes the key only while it holds the value and expiry deleteMany selected: a rewrite survives.
 * KEYS[2]: its collection index, which loses the member in the same script.
 */
const DELETE_IF_SAME = script(`#!lua
${REINDEX_LUA}
if redis.call('GET', KEYS[1]) == ARGV[1] and redis.call('PEXPIRETIME', KEYS[1]) == tonumber(ARGV[2]) then
  local n = redis.call('DEL', KEYS[1])
  lifespan_reindex(KEYS[1], KEYS[2])
  return n
end
return 0`);

/**
 * Keys one deleteMany() remembers having handled (deleted, or spared as rewritten), so that SCAN
 * handing one out again later in the walk neither deletes a record re-created after its deletion
 * nor one spared as rewritten. Beyond this many the oldest are forgotten: memory stays bounded,
 * and a key SCAN repeats after that many others may be deleted as a fresh match.
 */
export const MAX_REMEMBERED_KEYS = 100_000;

/** A set of at most `max` keys that forgets the oldest first. */
function boundedKeys(max: number) {
  const keys = new Set<string>();
  return {
    has: (key: string) => keys.has(key),
    add(key: string) {
      keys.add(key);
      if (keys.size > max) keys.delete(keys.values().next().value as string);
    },
  };
}

/**
 * deleteMany(): SCAN steps as findPage, each matching key deleted by a script that first checks
 * the value and expiry are still the ones selected, at most MAX_IN_FLIGHT keys at once. One
 * script per key: each call names a single key, so on a cluster it goes to that key's node.
 */
export function redisDeleteMany(p: RedisPages, req: DeleteManyRequest): Promise<number> {
  const place = placeOf(p, 'deleteMany');
  const readBoth = (keys: string[]) =>
    mapBounded(keys, async (key) => {
      const [text, at] = await runScriptFor<[string | null, number]>(p.client, READ_BOTH, [key], [], place);
      return text === null || text === undefined ? null : { key, text, expiresAt: String(at) };
    });
  const handled = boundedKeys(MAX_REMEMBERED_KEYS);
  const layout = indexLayout(p.client, p.prefix);
  return runDeleteMany<Match, ScanPosition>(
    {
      async select(after, size) {
        const { matched, next } = await walk(p, req.where, after, size, readBoth);
        return { picked: matched.filter((m) => !handled.has(m.key)), next };
      },
      remove: (picked) =>
        sumBounded(picked, async (m) => {
          const done = await runScript(
            p.client,
            DELETE_IF_SAME,
            [m.key, indexKeyOf(layout, p.mapping, m.key)],
            [m.text, m.expiresAt ?? '-1'],
            place,
          );
          handled.add(m.key);
          return done;
        }),
    },
    req,
  );
}
