import { isDeepStrictEqual } from 'node:util';
import { ErrorCodes } from '../../error-codes';
import { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import { duplicateKeyParts, unitHoldsKey, type DuplicateHit } from '../../runtime/key-errors';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import { mongoWriteTtl } from './expiry-instant';
import type { CollectionMapping } from './compile';
import { idFromValues } from './documents';
import { expiredFilter } from './expiry-expressions';
import { duplicateOnId, serverCode, serverMessage, type BulkOperation, type MongoDbLike } from './gateway';
import { ERROR_CODES, STORE } from './semantics';
import { entityWrite } from './writes';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly mapping: CollectionMapping;
      readonly entity: object;
      readonly ttl: PerWriteTtl | undefined;
    }
  | { readonly kind: 'delete'; readonly mapping: CollectionMapping; readonly key: Record<string, unknown> };

interface Batch {
  readonly mapping: CollectionMapping;
  readonly operations: BulkOperation[];
  /** What each operation is, for the error that names the one that failed. */
  readonly described: string[];
  readonly insertIds: unknown[];
}

/**
 * Collects writes and sends them as ordered bulkWrites, one per run of consecutive writes to the
 * same collection. Every write is built (and every TTL checked) before anything is sent. Not
 * atomic, not even within one collection: an ordered bulkWrite stops at the first failing write
 * and keeps those before it (atomicity needs a replica-set transaction, which lifespan does not
 * open). So a failed commit says how many operations were written. It commits once.
 */
export class MongoUnitOfWork extends UnitOfWorkShell<Pending, CollectionMapping> {
  constructor(
    private readonly db: MongoDbLike,
    private readonly hideExpired: boolean,
    mappingOf: (target: unknown) => CollectionMapping,
  ) {
    super(STORE, mappingOf);
  }

  protected writeOp(
    kind: 'insert' | 'upsert',
    mapping: CollectionMapping,
    entity: object,
    ttl: PerWriteTtl | undefined,
  ) {
    return { kind, mapping, entity, ttl };
  }

  protected deleteOp(mapping: CollectionMapping, key: Record<string, unknown>): Pending {
    return { kind: 'delete', mapping, key };
  }

  protected async commitOps(pending: readonly Pending[], commitTtl: PerWriteTtl | undefined): Promise<void> {
    const batches = this.build(pending, commitTtl);
    const total = batches.reduce((n, b) => n + b.operations.length, 0);
    let written = 0;
    for (const batch of batches) {
      const collection = this.db.collection(batch.mapping.collection);
      const ttl = batch.mapping.ttl;
      if (this.hideExpired && ttl !== null && batch.insertIds.length > 0) {
        try {
          // Due documents the monitor has not deleted yet are absent to reads; they must not block inserts.
          await collection.deleteMany(expiredFilter({ _id: { $in: batch.insertIds } }, ttl));
        } catch (error) {
          throw commitError(error, batch, written, total, { index: 0, operation: undefined }, 'one-of-keys');
        }
      }
      try {
        await collection.bulkWrite(batch.operations, { ordered: true });
      } catch (error) {
        const stop = stopAtWriteError(error, written, batch);
        throw commitError(error, batch, written, total, stop, duplicateHit(error, pending, written, stop));
      }
      written += batch.operations.length;
    }
  }

  private build(pending: readonly Pending[], commitTtl: PerWriteTtl | undefined): Batch[] {
    const batches: Batch[] = [];
    for (const item of pending) {
      let last = batches[batches.length - 1];
      if (!last || last.mapping !== item.mapping) {
        last = { mapping: item.mapping, operations: [], described: [], insertIds: [] };
        batches.push(last);
      }
      if (item.kind === 'delete') {
        const id = idFromValues(item.mapping, item.key);
        last.operations.push({ deleteOne: { filter: { _id: id } } });
        last.described.push(`delete of ${item.mapping.entity.name}`);
        continue;
      }
      const ttl = mongoWriteTtl(item.mapping.entity, writeTtl(item.ttl, commitTtl), item.entity);
      const write = entityWrite(item.mapping, item.entity, ttl, item.kind, this.hideExpired);
      last.operations.push({ updateOne: { filter: write.filter, update: write.update, upsert: write.upsert } });
      // Kind and entity only: a key can be a bearer value (a session id), kept out of messages.
      last.described.push(`${item.kind} of ${item.mapping.entity.name}`);
      if (item.kind === 'insert') last.insertIds.push(write.filter['_id']);
    }
    return batches;
  }
}

/** Where in a batch a commit stopped: before its first operation (the pre-insert cleanup), or at a write error. */
type StopPoint = { readonly index: number; readonly operation: string | undefined } | null;

function stopAtWriteError(error: unknown, writtenBefore: number, batch: Batch): StopPoint {
  const index = failingIndex(error);
  if (index === undefined) return null;
  const described = batch.described[index];
  return { index, operation: described && `operation ${writtenBefore + index + 1} (${described})` };
}

/**
 * What a duplicate-key failure of a bulk write met: another unique index, the unit's own earlier
 * write of the key, a stored record with the key, or (without a write error index) one of its keys.
 */
function duplicateHit(
  error: unknown,
  pending: readonly Pending[],
  writtenBefore: number,
  stop: StopPoint,
): DuplicateHit {
  if (!duplicateOnId(error)) return 'unique-constraint';
  if (stop === null) return 'one-of-keys';
  const at = writtenBefore + stop.index;
  const held = pending[at]?.kind === 'insert' && unitHoldsKey(pending, at, sameId, (op) => op.kind === 'delete');
  return held ? 'inserted-twice' : 'key';
}

function sameId(a: Pending, b: Pending): boolean {
  return a.mapping === b.mapping && isDeepStrictEqual(pendingId(a), pendingId(b));
}

function pendingId(op: Pending): unknown {
  return idFromValues(op.mapping, op.kind === 'delete' ? op.key : (op.entity as Record<string, unknown>));
}

/**
 * The failure of one batch, with what stays written: every operation of the batches before it,
 * and in an ordered bulkWrite the operations before the failing one (the index of its write
 * error). Without a write error index (a network error, a timeout) the batch's own share is unknown.
 */
function commitError(
  error: unknown,
  batch: Batch,
  writtenBefore: number,
  total: number,
  stop: StopPoint,
  hit: DuplicateHit,
): StoreError {
  const { mapping } = batch;
  const committed = stop === null ? null : writtenBefore + stop.index;
  const progress =
    committed === null
      ? `${count(writtenBefore, total)} were written before this batch and stay written; of its ` +
        `${batch.operations.length} on '${mapping.collection}' an unknown number were written`
      : stop?.operation
        ? `${count(committed, total)} were written before the failure and stay written; the failing one ` +
          `and the ${total - committed - 1} after it were not written`
        : `${count(committed, total)} were written and stay written; the other ${total - committed} were not sent`;
  const counts = resultCounts(error);
  const shownCounts = counts ? ` (server counts for this batch: ${counts})` : '';
  if (serverCode(error) === ERROR_CODES.duplicateKey) {
    const { message, options } = duplicateKeyParts({
      store: STORE,
      entity: mapping.entity,
      collection: mapping.collection,
      hit,
      cause: error,
      unitOfWork: {
        nothingWritten: committed === 0,
        written: `${stop?.operation ? `stopped at ${stop.operation}; ` : ''}${progress}${shownCounts}`,
      },
    });
    return new MongoCommitError(ErrorCodes.STORE_DUPLICATE_KEY, message, committed, total, options);
  }
  const failed = stop?.operation ? ` at ${stop.operation}` : '';
  return new MongoCommitError(
    'STORE_OPERATION_FAILED',
    `commit failed on '${mapping.collection}': ${serverMessage(error)}${failed}; ${progress}${shownCounts}`,
    committed,
    total,
    {
      entity: mapping.entity.name,
      store: STORE,
      cause: error,
      hint: 'a unit of work is not atomic: check what was written before retrying with a new unitOfWork()',
    },
  );
}

/**
 * A failed commit of a unit of work. `committed`: how many of its `total` operations (in the
 * order they were added) were written and stay written; null when the server did not say.
 */
export class MongoCommitError extends StoreError {
  constructor(
    code: ConstructorParameters<typeof StoreError>[0],
    message: string,
    readonly committed: number | null,
    readonly total: number,
    options: ConstructorParameters<typeof StoreError>[2],
  ) {
    super(code, message, options);
  }
}

/** The index, in the batch, of the first write error of a MongoBulkWriteError. */
function failingIndex(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const writeErrors = (error as { writeErrors?: unknown }).writeErrors;
  const list: unknown[] = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  const indexes = list
    .map((e) => (e as { index?: unknown } | null)?.index)
    .filter((i): i is number => typeof i === 'number' && Number.isInteger(i) && i >= 0);
  return indexes.length > 0 ? Math.min(...indexes) : undefined;
}

/** MongoBulkWriteError.result: the counts of what this batch wrote before it stopped. */
function resultCounts(error: unknown): string | undefined {
  const result = (error as { result?: unknown } | null)?.result;
  if (typeof result !== 'object' || result === null) return undefined;
  const r = result as Record<string, unknown>;
  const parts = (['upsertedCount', 'matchedCount', 'modifiedCount', 'deletedCount'] as const)
    .filter((k) => typeof r[k] === 'number')
    .map((k) => `${k} ${String(r[k])}`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}

function count(n: number, total: number): string {
  return `${n} of the ${total} operation${total === 1 ? '' : 's'}`;
}
