import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { showValue } from '../model/show-value';
import type { IterateOptions, Page, PageOptions } from '../providers/contract';
import { filterArgument, knownOptions } from './arguments';
import { decodeCursor, encodeCursor, type CursorScope } from './cursor';

/** The most records one page (or one deleteMany batch) holds: memory stays bounded by it. */
export const MAX_PAGE_SIZE = 10_000;
export const DEFAULT_PAGE_SIZE = 100;

/** A page size: a whole number from 1 to MAX_PAGE_SIZE (the store's own ceiling where lower); `fallback` when left out. */
export function sizeArgument(
  value: unknown,
  name: string,
  call: string,
  place: ErrorPlace,
  max: number,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= max) return value;
  throw new LifespanError(
    ErrorCodes.BAD_ARGUMENT,
    `${call} got ${name} ${showValue(value)}, not a whole number from 1 to ${max}`,
    {
      ...place,
      hint: `pass { ${name}: n } with 1 <= n <= ${max}, or leave ${name} out (default ${fallback})`,
    },
  );
}

/** What a store's findPage() needs, checked alike on every store before anything is read. */
export interface PageRequest<Position> {
  readonly where: Record<string, unknown>;
  readonly limit: number;
  /** Where the previous page ended; undefined for the first page. */
  readonly position: Position | undefined;
  /** The cursor of the page after one that ended at `position`. */
  readonly cursorAt: (position: Position) => string;
}

/**
 * The checked arguments of findPage(where, options): the filter, the limit (default 100) and the
 * cursor's position, which `checkPosition` (the store's) turns into its own position or refuses.
 */
export function pageRequest<Position>(
  where: unknown,
  options: unknown,
  scope: Omit<CursorScope, 'where'>,
  checkPosition: (raw: unknown) => Position,
  max: number = MAX_PAGE_SIZE,
): PageRequest<Position> {
  const place = { entity: scope.entity, store: scope.store };
  const filter = filterArgument(where, 'findPage()', place);
  const { limit, cursor } = knownOptions<PageOptions>(
    options,
    'findPage()',
    place,
    ['limit', 'cursor'],
    '{ limit: 100, cursor: page.cursor }',
  );
  const size = sizeArgument(limit, 'limit', 'findPage()', place, Math.min(max, MAX_PAGE_SIZE), DEFAULT_PAGE_SIZE);
  const full = { ...scope, where: filter };
  const position = cursor === undefined ? undefined : checkPosition(decodeCursor(cursor, full));
  return { where: filter, limit: size, position, cursorAt: (at) => encodeCursor(full, at) };
}

/** A page from its items and the position after them (undefined: nothing follows). */
export function pageOf<T, Position>(items: T[], next: Position | undefined, request: PageRequest<Position>): Page<T> {
  return next === undefined ? { items } : { items, cursor: request.cursorAt(next) };
}

/**
 * iterate(where, { pageSize }) over any store's findPage(): one page in memory at a time. The
 * options and the filter's shape are checked when iterate() is called, not at the first record (its
 * member names by the first page), and the filter is copied then.
 */
export function iteratePages<T>(
  findPage: (where: Partial<T> | undefined, options: PageOptions) => Promise<Page<T>>,
  where: Partial<T> | undefined,
  options: unknown,
  place: ErrorPlace,
): AsyncIterable<T> {
  // A copy: a caller changing its filter object while the walk runs changes nothing of this walk.
  const filter = { ...filterArgument(where, 'iterate()', place) } as Partial<T>;
  const { pageSize } = knownOptions<IterateOptions>(options, 'iterate()', place, ['pageSize'], '{ pageSize: 500 }');
  const limit = sizeArgument(pageSize, 'pageSize', 'iterate()', place, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE);
  return {
    async *[Symbol.asyncIterator]() {
      let cursor: string | undefined;
      do {
        const page = await findPage(filter, cursor === undefined ? { limit } : { limit, cursor });
        cursor = page.cursor;
        yield* page.items;
      } while (cursor !== undefined);
    },
  };
}
