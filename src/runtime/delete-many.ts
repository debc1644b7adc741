import { ErrorCodes } from '../error-codes';
import { LifespanError, type ErrorPlace } from '../errors';
import { showValue } from '../model/show-value';
import type { DeleteManyOptions } from '../providers/contract';
import { filterArgument, knownOptions } from './arguments';
import { sizeArgument, MAX_PAGE_SIZE } from './pages';

/** Records one deleteMany() batch selects and deletes when the caller sets no batchSize. */
export const DEFAULT_DELETE_BATCH = 500;

/**
 * Called with each batch's selection before it is deleted. Not an option of the public API (a
 * symbol key, so the unknown-option rule does not see it): the contract suite rewrites a selected
 * record here to pin that deleteMany() spares it.
 */
export const AFTER_SELECT: unique symbol = Symbol('lifespan deleteMany after select');

export interface DeleteManyRequest {
  readonly where: Record<string, unknown>;
  readonly batchSize: number;
  readonly afterSelect: ((count: number) => Promise<void> | void) | undefined;
}

/** deleteMany()'s arguments, checked alike on every store: an empty filter needs `{ all: true }`. */
export function deleteManyRequest(where: unknown, options: unknown, place: ErrorPlace): DeleteManyRequest {
  const filter = filterArgument(where, 'deleteMany()', place);
  const checked = knownOptions<DeleteManyOptions>(
    options,
    'deleteMany()',
    place,
    ['batchSize', 'all'],
    '{ batchSize: 500 }',
  );
  if (checked.all !== undefined && typeof checked.all !== 'boolean') {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, `deleteMany() got all ${showValue(checked.all)}, not a boolean`, {
      ...place,
      hint: 'pass { all: true } to delete every record of the entity, or leave it out',
    });
  }
  const empty = Object.values(filter).every((v) => v === undefined);
  if (empty && checked.all !== true) {
    throw new LifespanError(ErrorCodes.BAD_ARGUMENT, 'deleteMany() got an empty filter: it would delete every record', {
      ...place,
      hint: 'pass the members to match, e.g. deleteMany({ owner: "u1" }), or { all: true } as the options to delete every record',
    });
  }
  const batchSize = sizeArgument(
    checked.batchSize,
    'batchSize',
    'deleteMany()',
    place,
    MAX_PAGE_SIZE,
    DEFAULT_DELETE_BATCH,
  );
  const seam = (options as { [AFTER_SELECT]?: DeleteManyRequest['afterSelect'] } | undefined)?.[AFTER_SELECT];
  return { where: filter, batchSize, afterSelect: seam };
}

/** One store's two halves of a batch: select live matches after a position, delete what is unchanged. */
export interface DeleteBatches<Picked, Position> {
  /** Up to `size` live matches after `after`, and where the next batch starts (undefined: none left). */
  select(after: Position | undefined, size: number): Promise<{ picked: readonly Picked[]; next: Position | undefined }>;
  /** Deletes those picked records that are still live and as selected; returns how many it deleted. */
  remove(picked: readonly Picked[]): Promise<number>;
}

/** The batch loop of every store's deleteMany(): select, (seam), delete, until nothing follows. */
export async function runDeleteMany<Picked, Position>(
  batches: DeleteBatches<Picked, Position>,
  request: DeleteManyRequest,
): Promise<number> {
  let deleted = 0;
  let after: Position | undefined;
  do {
    const { picked, next } = await batches.select(after, request.batchSize);
    if (picked.length > 0) {
      await request.afterSelect?.(picked.length);
      deleted += await batches.remove(picked);
    }
    after = next;
  } while (after !== undefined);
  return deleted;
}
