import { invalidCursor } from '../../runtime/cursor';
import { pageOf, pageRequest, type PageRequest } from '../../runtime/pages';
import type { Page } from '../contract';
import { decodeEntity, parseStored, type StoredRecord } from './codec';
import type { KeyspaceMapping } from './compile';
import { call, type CallPlace, type RedisClientLike } from './gateway';
import { collectionPrefix, headHasTag, keyHead, scanPattern } from './keys';
import { matches, whereForms } from './records';
import { indexLayout } from './collection-index';
import { ensureIndexed } from './index-build';
import { forgetIndexed } from './index-marker';
import { indexScan, STEP_COUNT } from './index-scan';
import { retriedAfterReshard } from './reshard';
import { cutAt, indexPositionOf, INDEX_START, type IndexPosition } from './index-position';
import { walkTargets } from './scan';
import { scanStep, walkPositionOf, WALK_START, type WalkPosition } from './scan-step';
import { STORE } from './semantics';
import { hashSlot } from './slots';

/**
 * findPage / deleteMany on Redis walk the collection index (index-scan.ts: ZSCAN over the index,
 * per slot in slot order on a cluster; each member's value read by one MGET after the script on
 * one server, in the script on a cluster and for deleteMany; an unfiltered findPage on one server
 * sends ZSCAN and MGET itself, server-index-walk.ts), so their
 * cost grows with the collection, not the database; the index is made complete first as find() /
 * count() make it (index-build.ts). A cursor made before that (the SCAN walk's: on a cluster over
 * every primary in turn) still resumes its SCAN walk. Both walks are unordered, their steps
 * return as many members as they find (COUNT is a hint), and a record may come twice in one walk,
 * so a page is cut inside a step: the position is the step's cursor plus the records of that step
 * already handed out (at most one step's worth; in the index walk also those of a step at cursor 0
 * of the same index, which may come again in later steps: IndexPosition in index-scan.ts). A
 * page may be short or empty with a cursor; expired keys are gone for Redis itself (a GET of one
 * is nil), and that read, not the member's index score, leaves them out.
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

/** A position of either walk (index-scan.ts for the index walk's). */
export type Position = ScanPosition | IndexPosition;

/** SCAN steps (index scripts) one page may take before it returns short: a sparse match does not hold a call forever. */
const MAX_STEPS_PER_PAGE = 64;

export interface Read {
  readonly key: string;
  readonly text: string;
  /** Absolute expiry in ms (-1: none), read with the value in one script (deleteMany only). */
  readonly expiresAt?: string | undefined;
  /** The value parsed already, by the walk that read it (server-index-walk.ts). */
  readonly stored?: StoredRecord | undefined;
}

export interface Match extends Read {
  readonly stored: StoredRecord;
}

/**
 * What a walk keeps of each record it takes: findPage the entity, made as the record is taken so
 * a page holds its entities only, not their texts and parsed records too (fewer objects live
 * through a page: less for the garbage collector to copy); deleteMany the match (keepMatch).
 */
export type Keep<M> = (hit: Read, stored: StoredRecord) => M;

export const keepMatch: Keep<Match> = (hit, stored) => ({
  key: hit.key,
  text: hit.text,
  expiresAt: hit.expiresAt,
  stored,
});

interface Walk<M> {
  readonly matched: M[];
  readonly next: Position | undefined;
}

/** The matches of one page: each record once, at most `limit`. */
class PageMatches<M> {
  readonly matched: M[] = [];
  private readonly onPage = new Set<string>();

  constructor(
    private readonly mapping: KeyspaceMapping,
    private readonly forms: ReturnType<typeof whereForms>['forms'],
    private readonly limit: number,
    private readonly keep: Keep<M>,
  ) {}

  get full(): boolean {
    return this.matched.length === this.limit;
  }

  /** Keeps a record that matches; 'full' when it matches but the page is full (the walk cuts before it). */
  offer(hit: Read): 'taken' | 'passed' | 'full' {
    // A walk may hand a record out again in a later step of the same page: each record once per page.
    if (this.onPage.has(hit.key)) return 'passed';
    const stored = hit.stored ?? parseStored(this.mapping, hit.key, hit.text);
    if (this.forms.length > 0 && !matches(stored, this.forms)) return 'passed';
    if (this.full) return 'full';
    this.matched.push(this.keep(hit, stored));
    this.onPage.add(hit.key);
    return 'taken';
  }
}

type ReadKeys = (keys: string[]) => Promise<Array<Read | null>>;

/**
 * The page from `from` on. A first page, and a position of the index walk, walk the collection
 * index; a page resumed from a SCAN position (a cursor made before the index was read) goes on
 * with that SCAN walk. The index is made complete first as find() / count() make it
 * (index-build.ts: records stored before it are added once, by one SCAN walk of the database). An
 * index found lost (one server: its built member is gone) is forgotten and built again, and the
 * walk starts over on it (records already handed out may come again); lost once more, the page is
 * the SCAN walk's first.
 */
export async function walkFrom<M>(
  p: RedisPages,
  where: Record<string, unknown>,
  from: Position | undefined,
  limit: number,
  mode: 'values' | 'both',
  read: ReadKeys,
  keep: Keep<M>,
): Promise<Walk<M>> {
  if (from !== undefined && !isIndexPosition(from)) return scanWalk(p, where, from, limit, read, keep);
  const layout = indexLayout(p.client, p.prefix);
  const place = placeOf(p, mode === 'both' ? 'deleteMany (collection index)' : 'findPage (collection index)');
  let at = from;
  for (let attempt = 0; attempt < 2; attempt++) {
    await ensureIndexed(p.client, layout, p.mapping, place);
    const walk = await indexWalk(p, where, at, limit, mode, place, keep);
    if (walk !== 'lost') return walk;
    forgetIndexed(p.client, layout, p.mapping);
    at = undefined;
  }
  return scanWalk(p, where, undefined, limit, read, keep);
}

function isIndexPosition(position: Position): position is IndexPosition {
  return 'z' in position;
}

/**
 * Up to `limit` matching records from `from` on, walking the collection index (index-scan.ts):
 * one script per step of the walk, the values read in it, kept when they hold the filtered values.
 * A filter that gives the partition walks only its members (ZSCAN MATCH), on a cluster in its slot only.
 */
async function indexWalk<M>(
  p: RedisPages,
  where: Record<string, unknown>,
  from: IndexPosition | undefined,
  limit: number,
  mode: 'values' | 'both',
  place: CallPlace,
  keep: Keep<M>,
): Promise<Walk<M> | 'lost'> {
  const { values, forms } = whereForms(p.mapping, where);
  const layout = indexLayout(p.client, p.prefix);
  const narrowed = keyHead(p.prefix, p.mapping, values);
  const tagged = headHasTag(narrowed);
  const slot = layout.cluster && tagged ? hashSlot(narrowed) : undefined;
  const head = collectionPrefix(p.prefix, p.mapping);
  const match = tagged ? scanPattern(p.prefix, p.mapping, values) : '';
  const page = new PageMatches(p.mapping, forms, limit, keep);
  const parse = (key: string, text: string) => parseStored(p.mapping, key, text);
  // Every record the script hands out matches when the filter names only what MATCH selects (or
  // nothing); else most may fail it, and a script reading only what the page lacks (1 for limit 1)
  // would cost a round trip per record: it reads a step's worth at least and the page is cut here.
  const tagMembers = new Set(p.mapping.tagMembers.map((f) => f.member));
  const exact = forms.every(([field]) => tagged && tagMembers.has(field.member));
  let at: IndexPosition = from ?? (slot === undefined ? INDEX_START : { z: slot, c: '0', s: [] });
  for (let step = 0; step < MAX_STEPS_PER_PAGE; step++) {
    const lack = limit - page.matched.length;
    const query = { want: exact ? lack : Math.max(lack, STEP_COUNT), mode, match, slot, head, exact, parse };
    const scan = await retriedAfterReshard(p.client, layout, p.mapping, place, () =>
      indexScan(p.client, layout, p.mapping, at, query, place),
    );
    if (scan.lost) return 'lost';
    for (const part of scan.steps) {
      // Cut before the first match the page has no room for (a filter the script does not apply,
      // or a record read twice in one call): the records of its step before it are handed out.
      for (let i = 0; i < part.reads.length; i++) {
        if (page.offer(part.reads[i] as Read) !== 'full') continue;
        const handed = part.reads.slice(0, i).map((r) => r.key.slice(head.length));
        return { matched: page.matched, next: cutAt(part.at, handed) };
      }
    }
    if (scan.next === undefined) return { matched: page.matched, next: undefined };
    at = scan.next;
    if (page.full) break;
  }
  return { matched: page.matched, next: at };
}

/**
 * Up to `limit` matching records from `from` on: SCAN steps, each step's keys read with MGET (or,
 * for deleteMany, value and expiry together), kept when they hold the filtered values.
 */
async function scanWalk<M>(
  p: RedisPages,
  where: Record<string, unknown>,
  from: ScanPosition | undefined,
  limit: number,
  read: ReadKeys,
  keep: Keep<M>,
): Promise<Walk<M>> {
  const { values, forms } = whereForms(p.mapping, where);
  const pattern = scanPattern(p.prefix, p.mapping, values);
  const head = collectionPrefix(p.prefix, p.mapping);
  const place = placeOf(p, 'findPage (SCAN)');
  const page = new PageMatches(p.mapping, forms, limit, keep);
  const targets = await walkTargets(p.client);
  let at: WalkPosition = from ? { node: from.n, cursor: from.c } : WALK_START;
  let skip = new Set(from?.s ?? []);
  for (let step = 0; step < MAX_STEPS_PER_PAGE; step++) {
    // COUNT asks for what the page still lacks, so a step seldom overshoots it (COUNT is a hint).
    const count = Math.max(limit - page.matched.length, 10);
    const { keys, next } = await scanStep(targets, at, { pattern, count }, place);
    const fresh = skip.size === 0 ? keys : keys.filter((k) => !skip.has(k.slice(head.length)));
    const found = fresh.length === 0 ? [] : await read(fresh);
    const taken: string[] = [];
    for (const hit of found) {
      // Null: expired or deleted between SCAN and the read.
      if (hit === null) continue;
      const got = page.offer(hit);
      if (got === 'full') return { matched: page.matched, next: { n: at.node, c: at.cursor, s: [...skip, ...taken] } };
      if (got === 'taken') taken.push(hit.key.slice(head.length));
    }
    if (next === undefined) return { matched: page.matched, next: undefined };
    at = next;
    skip = new Set();
    if (page.full) break;
  }
  return { matched: page.matched, next: { n: at.node, c: at.cursor, s: [] } };
}

/**
 * The layout an index position was made on, in the cursor (`l`): 's' one server (its one index),
 * 'c' a cluster (`z` the slot of a per-slot index). A position of the other layout would walk the
 * wrong index, or none: one server has no index of slot 5, and slot 0's index of a cluster is not
 * one server's. Cursors issued before the tag hold none: one of a slot other than 0 is a
 * cluster's, one of slot 0 is taken for this layout's (as it was).
 */
type Layout = 's' | 'c';
const LAYOUT_NAMES: Readonly<Record<Layout, string>> = { s: 'one Redis server', c: 'a Redis Cluster' };

/** A position of the index walk (it holds `z`) or of the SCAN walk (a cursor issued before the index); else CURSOR_INVALID. */
function checkedPosition(p: RedisPages, raw: unknown): Position {
  if (typeof raw === 'object' && raw !== null && 'z' in raw) {
    const place = { entity: p.mapping.entity.name, store: STORE };
    const at = indexPositionOf(raw);
    const made = (raw as { l?: unknown }).l ?? (at !== undefined && at.z !== 0 ? 'c' : undefined);
    if (at === undefined || (made !== undefined && made !== 's' && made !== 'c')) {
      throw invalidCursor('does not hold a collection index position', place);
    }
    const here: Layout = indexLayout(p.client, p.prefix).cluster ? 'c' : 's';
    if (made !== undefined && made !== here) {
      throw invalidCursor(
        `was made on ${LAYOUT_NAMES[made as Layout]}, whose collection index is laid out otherwise, not on ${LAYOUT_NAMES[here]}`,
        place,
        'a cursor resumes only on the kind of deployment that made it: leave the cursor out to start over',
      );
    }
    return at;
  }
  const r = raw as Partial<ScanPosition> | null;
  // walkPositionOf: a primary's index and its SCAN cursor, an unsigned 64-bit number (Redis refuses any other).
  const at = typeof r === 'object' && r !== null ? walkPositionOf({ node: r.n, cursor: r.c }) : undefined;
  const ok =
    at !== undefined && BigInt(at.cursor) < 2n ** 64n && Array.isArray(r?.s) && r.s.every((k) => typeof k === 'string');
  if (!ok) throw invalidCursor('does not hold a SCAN position', { entity: p.mapping.entity.name, store: STORE });
  return { n: at.node, c: at.cursor, s: (r as ScanPosition).s };
}

export function placeOf(p: RedisPages, operation: string): CallPlace {
  return { entity: p.mapping.entity.name, operation: `${operation} on '${p.mapping.collection}'` };
}

function request(p: RedisPages, where: unknown, options: unknown): PageRequest<Position> {
  const scope = { store: STORE, entity: p.mapping.entity.name, collection: p.mapping.collection };
  return pageRequest(where, options, scope, (raw) => checkedPosition(p, raw));
}

/** findPage(): the records of the walk's steps from the cursor on, up to `limit` (unordered; see above). */
export async function redisPage<T>(p: RedisPages, where: unknown, options: unknown): Promise<Page<T>> {
  const req = request(p, where, options);
  const place = placeOf(p, 'findPage (MGET)');
  const mget = async (keys: string[]) => {
    const texts = await call<Array<string | null>>(p.client, ['MGET', ...keys], place);
    return texts.map((text, i) => (text === null ? null : { key: keys[i] as string, text }));
  };
  const entity: Keep<T> = (hit, stored) => decodeEntity<T>(p.mapping, hit.key, stored);
  const { matched: items, next } = await walkFrom(p, req.where, req.position, req.limit, 'values', mget, entity);
  // An index position says which layout it belongs to (checkedPosition).
  const l: Layout = indexLayout(p.client, p.prefix).cluster ? 'c' : 's';
  const tagged = next !== undefined && isIndexPosition(next) ? { ...next, l } : next;
  return pageOf(items, tagged, req);
}
