import type { JSONObject, OperationInput, OperationResponse } from '@azure/cosmos';
import { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import type { EntityModel } from '../../model/types';
import { commitClock, stampTimestamps, valuesOf } from '../../runtime/entity-values';
import { duplicateKey } from '../../runtime/key-errors';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import { recordWriteTtl } from '../../runtime/write-instant';
import { stampedTtl } from './expiry-instant';
import type { CosmosContext, EntityAccess } from './context';
import { CONFLICT, driverCall } from './driver-errors';
import { clientNowSeconds } from './item-expiry';
import type { ItemAddress, ItemBody, PartitionValue } from './codec';
import { readItem, type RawItem } from './item-reader';
import { itemWrite, needsCurrentItem, type CurrentItem, type ItemWrite } from './item-writes';
import { MAX_BATCH_OPERATIONS, STORE } from './semantics';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly access: EntityAccess;
      readonly instance: object;
      readonly ttl: PerWriteTtl | undefined;
    }
  | { readonly kind: 'delete'; readonly access: EntityAccess; readonly key: Record<string, unknown> };

interface Prepared {
  readonly container: string;
  readonly partition: PartitionValue;
  readonly operation: OperationInput;
  /** Its number in the unit of work (from 1), for messages: they name no key value (a key can be a bearer value). */
  readonly number: number;
  readonly describe: string;
  readonly entity: EntityModel;
}

/** What this unit of work has already written to an address: the item body, or null once deleted. */
type Staged = Map<string, ItemBody | null>;

/**
 * Buffers writes and sends them as Cosmos transactional batches: one batch per container and
 * partition key value (up to 100 operations each). Each batch is atomic on the service; several
 * batches are sent one after another and are not atomic together.
 */
export class CosmosUnitOfWork extends UnitOfWorkShell<Pending, EntityAccess> {
  constructor(private readonly context: CosmosContext) {
    super(STORE, (target) => context.access(target));
  }

  protected writeOp(kind: 'insert' | 'upsert', access: EntityAccess, instance: object, ttl: PerWriteTtl | undefined) {
    return { kind, access, instance, ttl };
  }

  protected deleteOp(access: EntityAccess, key: Record<string, unknown>): Pending {
    return { kind: 'delete', access, key };
  }

  protected async commitOps(pending: readonly Pending[], commitTtl: PerWriteTtl | undefined): Promise<void> {
    const prepared: Prepared[] = [];
    const staged: Staged = new Map();
    const clock = commitClock();
    for (const [i, item] of pending.entries()) {
      prepared.push(...(await this.prepare(item, i + 1, commitTtl, staged, clock)));
    }
    const batches = groupBatches(prepared);
    const done: number[] = [];
    for (const batch of batches) {
      await this.send(batch, pending.length, done);
      done.push(...batch.map((p) => p.number));
    }
  }

  /** Checks and encodes one write before anything is sent (a bad value fails the whole commit early). */
  private async prepare(
    item: Pending,
    number: number,
    commitTtl: PerWriteTtl | undefined,
    staged: Staged,
    clock: () => Date,
  ): Promise<Prepared[]> {
    const { access } = item;
    if (item.kind === 'delete') {
      const address = access.codec.address(item.key);
      // A batch fails on a missing item, and deleting what is not there is a no-op: leave it out,
      // unless an earlier write of this unit of work creates it.
      const key = addressKey(access, address);
      const exists = staged.has(key) ? staged.get(key) !== null : (await readItem(access, address)) !== undefined;
      if (!exists) return [];
      staged.set(key, null);
      return [this.prepared(access, address, { operationType: 'Delete', id: address.id }, number, 'delete')];
    }
    const { entity, codec } = access;
    const values = stampTimestamps(entity, valuesOf(entity, item.instance), clock, item.kind === 'insert');
    const requested = recordWriteTtl(entity, writeTtl(item.ttl, commitTtl), STORE, values);
    const ttl = await stampedTtl(this.context, codec.layout.container, entity, requested);
    const body = codec.encode(values);
    const address = codec.address(values);
    const key = addressKey(access, address);
    const preserved = codec.preservedOnUpdate;
    const earlier = staged.get(key);
    if (item.kind === 'insert' && earlier) {
      // The batch would refuse it too (409), but only this check can say it is the unit's own write.
      throw duplicateKey({
        store: STORE,
        entity,
        collection: codec.layout.container,
        hit: 'inserted-twice',
        unitOfWork: {
          nothingWritten: true,
          written: `nothing was sent: operation ${number} was refused before sending`,
        },
      });
    }
    let current: CurrentItem | undefined;
    if (needsCurrentItem(item.kind, ttl, preserved)) {
      const containerTtl = await this.context.containerTtl(codec.layout.container);
      if (earlier) {
        // Written earlier in this unit of work: both writes land together, so the item counts as
        // just written (_ts = now; the value of now cancels out of every computation).
        const now = clientNowSeconds();
        current = { raw: { ...earlier, _ts: now, _etag: '' } as RawItem, containerTtl, serverNow: now };
      } else if (earlier === undefined) {
        const stored = await readItem(access, address);
        current = stored && { ...stored, containerTtl };
      }
    }
    let write = itemWrite(item.kind, body, ttl, current, preserved);
    // After an earlier write in the same batch there is no stored etag to match: the batch is atomic.
    if (earlier && write.op === 'replace') write = { op: 'upsert', body: write.body };
    staged.set(key, write.body);
    return [this.prepared(access, address, toOperation(write), number, item.kind)];
  }

  private prepared(
    access: EntityAccess,
    address: ItemAddress,
    operation: OperationInput,
    number: number,
    verb: string,
  ): Prepared {
    return {
      entity: access.entity,
      number,
      container: access.codec.layout.container,
      partition: address.partition,
      // Each operation names its partition key too (the batch's own); some servers read it per operation.
      operation: { ...operation, partitionKey: address.partition },
      describe: `${verb} of ${access.entity.name}`,
    };
  }

  private async send(batch: readonly Prepared[], total: number, done: readonly number[]): Promise<void> {
    const first = batch[0] as Prepared;
    const container = this.context.database.container(first.container);
    const response = await driverCall(`committing a batch to '${first.container}'`, {}, () =>
      container.items.batch(
        batch.map((p) => p.operation),
        first.partition,
      ),
    );
    const results: readonly OperationResponse[] = response.result ?? [];
    const failedAt = results.findIndex((r) => r.statusCode >= 400 && r.statusCode !== 424);
    if (failedAt < 0 && results.length === batch.length) return;
    const failed = results[failedAt];
    const failing = batch[failedAt];
    const what = failing ? `operation ${failing.number} of ${total} (${failing.describe})` : 'an operation';
    const earlier = `operation${done.length === 1 ? '' : 's'} ${done.join(', ')} (earlier batches)`;
    const committed = done.length > 0 ? ` Committed already: ${earlier}.` : '';
    if (failed?.statusCode === CONFLICT && failing) {
      throw duplicateKey({
        store: STORE,
        entity: failing.entity,
        collection: first.container,
        // A Create meets an existing id; any other operation, a unique key policy.
        hit: failing.operation.operationType === 'Create' ? 'key' : 'unique-constraint',
        unitOfWork: {
          nothingWritten: done.length === 0,
          written:
            `the transactional batch stopped at ${what} and the service rolled the whole batch back; ` +
            (done.length > 0 ? `${earlier} ${done.length === 1 ? 'stays' : 'stay'} written` : 'nothing was written'),
        },
      });
    }
    throw new StoreError(
      'COSMOS_BATCH_FAILED',
      `the transactional batch failed at ${what} (HTTP ${failed?.statusCode ?? 'unknown'}); ` +
        `the service rolls the whole batch back.${committed}`,
      { store: STORE, hint: 'an item changed meanwhile (etag) or is missing; retry the unit of work' },
    );
  }
}

function addressKey(access: EntityAccess, address: ItemAddress): string {
  return JSON.stringify([access.codec.layout.container, address.partition, address.id]);
}

function toOperation(write: ItemWrite): OperationInput {
  // Encoded items hold only JSON values (dates, bigints and bytes are strings by then).
  const resourceBody = write.body as JSONObject;
  if (write.op === 'create') return { operationType: 'Create', resourceBody };
  if (write.op === 'upsert') return { operationType: 'Upsert', resourceBody };
  return { operationType: 'Replace', id: write.body.id, resourceBody, ifMatch: write.etag };
}

/** One batch per container and partition key value, split at the service's 100-operation limit. */
function groupBatches(prepared: readonly Prepared[]): Prepared[][] {
  const groups = new Map<string, Prepared[]>();
  for (const p of prepared) {
    const key = JSON.stringify([p.container, p.partition]);
    const group = groups.get(key) ?? [];
    group.push(p);
    groups.set(key, group);
  }
  const batches: Prepared[][] = [];
  for (const group of groups.values()) {
    for (let i = 0; i < group.length; i += MAX_BATCH_OPERATIONS) batches.push(group.slice(i, i + MAX_BATCH_OPERATIONS));
  }
  return batches;
}
