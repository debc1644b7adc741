import type { PerWriteTtl } from '../../model/per-write-ttl';
import { unitHoldsKey } from '../../runtime/key-errors';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import { recordWriteTtl } from '../../runtime/write-instant';
import type { KeyspaceMapping } from './compile';
import { keyFromValues } from './keys';
import { encodeEntity } from './records';
import { commitClock } from '../../runtime/entity-values';
import type { RedisContext } from './context';
import { duplicateKeyIn } from './repository';
import { RedisRouter } from './router';
import { runScript, WRITE_SCRIPT } from './scripts';
import { indexKeyOf, indexLayout } from './collection-index';
import { refuseSlotsSpread } from './slot-spread';
import { STORE } from './semantics';
import { createdAtPattern, redisTtl, scriptArgs } from './writes';

type Pending =
  | {
      readonly kind: 'insert' | 'upsert';
      readonly mapping: KeyspaceMapping;
      readonly entity: object;
      readonly ttl: PerWriteTtl | undefined;
    }
  | { readonly kind: 'delete'; readonly mapping: KeyspaceMapping; readonly key: string };

/**
 * Commits every queued write in one Lua script: atomic. Each value is encoded and checked at
 * commit, and each TTL too, before anything is sent; the script first checks every insert against the
 * keys as the earlier operations leave them and writes nothing when one finds a live key
 * (STORE_DUPLICATE_KEY), then runs the writes in order. On Redis Cluster every key of one unit
 * must be in one hash slot: a unit spanning slots is refused before anything is sent
 * (REDIS_CROSS_SLOT, naming the partitions).
 */
export class RedisUnitOfWork extends UnitOfWorkShell<Pending, KeyspaceMapping> {
  constructor(
    private readonly ctx: RedisContext,
    mappingOf: (target: unknown) => KeyspaceMapping,
  ) {
    super(STORE, mappingOf);
  }

  protected writeOp(kind: 'insert' | 'upsert', mapping: KeyspaceMapping, entity: object, ttl: PerWriteTtl | undefined) {
    return { kind, mapping, entity, ttl };
  }

  protected deleteOp(mapping: KeyspaceMapping, key: Record<string, unknown>): Pending {
    return { kind: 'delete', mapping, key: keyFromValues(this.ctx.prefix, mapping, key) };
  }

  protected async commitOps(pending: readonly Pending[], commitTtl: PerWriteTtl | undefined): Promise<void> {
    if (pending.length === 0) return;
    const keys: string[] = [];
    const clock = commitClock();
    const args = pending.flatMap((op) => {
      if (op.kind === 'delete') {
        keys.push(op.key);
        return scriptArgs('delete', { mode: 'persist', seconds: 0 }, '', '');
      }
      const ttl = redisTtl(
        op.mapping,
        recordWriteTtl(op.mapping.entity, writeTtl(op.ttl, commitTtl), STORE, op.entity),
      );
      const { key, value } = encodeEntity(this.ctx.prefix, op.mapping, op.entity, clock);
      keys.push(key);
      return scriptArgs(op.kind, ttl, value, createdAtPattern(op.mapping));
    });
    if (this.ctx.client instanceof RedisRouter && this.ctx.client.cluster) {
      refuseSlotsSpread(pending.map((op, i) => ({ mapping: op.mapping, key: keys[i] as string })));
    }
    const first = pending[0] as Pending;
    const place = { entity: first.mapping.entity.name, operation: `commit of ${pending.length} operations` };
    const layout = indexLayout(this.ctx.client, this.ctx.prefix);
    // Each record's collection index follows the record keys: the script keeps both (collection-index.ts).
    const indexes = pending.map((op, i) => indexKeyOf(layout, op.mapping, keys[i] as string));
    const failed = await runScript(this.ctx.client, WRITE_SCRIPT, [...keys, ...indexes], args, place);
    if (failed === 0) return;
    const at = failed - 1;
    const op = pending[at] as Pending;
    // The script reports only inserts, the one kind of operation that can meet a live key: a key
    // the same script wrote earlier, or a stored one.
    const ops = pending.map((p, i) => ({ isDelete: p.kind === 'delete', key: keys[i] }));
    const held = unitHoldsKey(
      ops,
      at,
      (a, b) => a.key === b.key,
      (o) => o.isDelete,
    );
    throw duplicateKeyIn(op.mapping, held ? 'inserted-twice' : 'key', {
      nothingWritten: true,
      written: `the script wrote nothing (one script, atomic): it stopped at operation ${failed} of ${pending.length}`,
    });
  }
}
