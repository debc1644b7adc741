import type { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import type { EntityMapping } from './compile';
import type { SessionContext } from './context';
import { createdAtIndex, keepStoredCreatedAt } from './created-at';
import type { Params, ResultSet } from './executor';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import { keyOfRow, keyParams, writeParams } from './rows';
import { keyIdentity, planRows, unitDuplicate, type Operation, type Planned, type RowPlan } from './row-plan';
import { keepShape } from '../../shape-anchors';
import { STORE } from './semantics';
import { ttlClause } from './write-ttl';
import { writePlanOf } from './write-plan';

/** One operation with its values checked and stamped (commit() checks every one before sending any). */
interface Checked extends Planned {
  /**
   * What the statement binds: every column's value, then the TTL's seconds when the write carries
   * USING TTL ? (writes); the primary key's values (deletes). Built once, in the order the
   * statement takes them: the batch sends this very array.
   */
  readonly params: Params;
  /** The primary key's values (the head of params): what the key check binds. */
  readonly key: Params;
  /** Whether the write carries USING TTL ? (its value is the last bound parameter). */
  readonly withTtl: boolean;
}

type Row = RowPlan<Checked>;

/** One statement of the commit, as the driver takes it (and nothing more: one object shape). */
interface Item {
  readonly query: string;
  readonly params: Params;
}

const PLACE = { store: STORE };

/**
 * Collects writes and sends them as one logged batch. Cassandra gives every statement of a batch
 * the same timestamp (where a delete beats a write of the same row whatever their order), so the
 * operations on one row are first reduced to the one statement that has their effect (row-plan.ts).
 *
 * Inserts are checked: within one partition with IF NOT EXISTS in the batch itself (a conditional
 * batch, atomic: nothing is written when a key exists); across partitions Cassandra refuses
 * conditional batches, so the keys are looked up first and the batch sent only if none exists.
 *
 * A unit of work commits once: afterwards (whether the commit succeeded or failed) it refuses more.
 */
export class CassandraUnitOfWork extends UnitOfWorkShell<Operation, EntityMapping> {
  constructor(private readonly ctx: SessionContext) {
    super(STORE, (target) => ctx.mappingOf(target));
  }

  protected writeOp(kind: 'insert' | 'upsert', mapping: EntityMapping, instance: object, ttl: PerWriteTtl | undefined) {
    return queuedWrite(kind, mapping, instance, ttl);
  }

  protected deleteOp(mapping: EntityMapping, key: Record<string, unknown>): Operation {
    return { kind: 'delete', mapping, key };
  }

  protected async commitOps(operations: readonly Operation[], commitTtl: PerWriteTtl | undefined): Promise<void> {
    if (operations.length === 0) return;
    const rows = planRows(this.check(operations, commitTtl));
    for (const row of rows) carryCreatedAt(row);
    const kept = rows.filter((row) => row.keepsStoredCreatedAt);
    if (kept.length > 0) {
      await Promise.all(kept.map((row) => keepStoredCreatedAt(this.ctx, row.last.op.mapping, row.last.params, PLACE)));
    }
    await this.send(rows);
  }

  /** Every value and TTL of every operation (also those a later one on the same row replaces) is checked first. */
  private check(operations: readonly Operation[], commitTtl: PerWriteTtl | undefined): Checked[] {
    const now = this.ctx.now();
    const clock = this.ctx.clock();
    const checked: Checked[] = [];
    for (const op of operations) {
      const { mapping } = op;
      if (op.kind === 'delete') {
        const params = keyParams(mapping, op.key);
        checked.push(checkedOp(op, keyIdentity(mapping, params), params, params, false));
      } else {
        const clause = ttlClause(mapping, writeTtl(op.ttl, commitTtl), clock, op.instance);
        const params = writeParams(mapping, op.instance, now, clause);
        const key = keyOfRow(mapping, params);
        checked.push(checkedOp(op, keyIdentity(mapping, key), params, key, clause.using));
      }
    }
    return checked;
  }

  private async send(rows: readonly Row[]): Promise<void> {
    const conditional = rows.filter(isConditional);
    // An insert the same unit of work then deletes still needs the key to be absent: checked by a read.
    const checkedByRead = rows.filter((row) => row.mustBeAbsent && row.last.op.kind === 'delete');
    if (rows.length === 1 || conditional.length === 0 || onePartition(rows)) {
      await this.requireAbsent(checkedByRead);
      const items = rows.map((row) => this.item(row, true));
      const only = items.length === 1 ? items[0] : undefined;
      const result = only
        ? await this.ctx.executor.execute(only.query, only.params, PLACE, 'unit of work')
        : await this.ctx.executor.batch(items, PLACE, 'unit of work (logged batch)');
      if (conditional.length > 0 && !result.wasApplied()) {
        // A failing read must not hide the duplicate: the error then does not say which key.
        const present =
          conditional.length === 1 ? conditional[0] : await this.firstPresent(conditional).catch(() => undefined);
        // Not found by the read: a racing delete; the batch still names its first insert's table.
        throw duplicate(present ?? (conditional[0] as Row), present !== undefined);
      }
      return;
    }
    await this.requireAbsent(checkedByRead.length === 0 ? conditional : [...conditional, ...checkedByRead]);
    // Across partitions the keys were checked by reads: the inserts go without IF NOT EXISTS.
    await this.ctx.executor.batch(
      rows.map((row) => this.item(row, false)),
      PLACE,
      'unit of work (logged batch)',
    );
  }

  /** The row's one statement; `conditional`: an insert of a row that must be absent carries IF NOT EXISTS. */
  private item(row: Row, conditional: boolean): Item {
    const { op, params, withTtl } = row.last;
    const statements = this.ctx.statements(op.mapping);
    if (op.kind === 'delete') return { query: statements.deleteByKey(), params };
    return { query: statements.insert({ withTtl, ifNotExists: conditional && row.mustBeAbsent }), params };
  }

  private async requireAbsent(rows: readonly Row[]): Promise<void> {
    const present = await this.firstPresent(rows);
    if (present) throw duplicate(present, true);
  }

  /** The first of the rows a unit of work inserts whose key is stored (the conditional batch does not say which). */
  private async firstPresent(rows: readonly Row[]): Promise<Row | undefined> {
    if (rows.length === 0) return undefined;
    const found = await Promise.all(
      rows.map(({ last }) =>
        this.ctx.executor.execute(
          this.ctx.statements(last.op.mapping).existsByKey(),
          last.key,
          PLACE,
          'unit of work (insert check)',
        ),
      ),
    );
    return rows.find((_, i) => (found[i] as ResultSet).rows.length > 0);
  }
}

/** An insert that must find its row absent and is sent as a write (not one the unit then deletes). */
function isConditional(row: Row): boolean {
  return row.mustBeAbsent && row.last.op.kind !== 'delete';
}

/**
 * The row as this unit of work leaves it was created by its first write after the last delete:
 * that write's @CreatedAt is the one written (in place: each operation's values are its own).
 */
function carryCreatedAt(row: Row): void {
  const { last, creator } = row;
  if (last.op.kind === 'delete' || creator === undefined || creator === last) return;
  const index = createdAtIndex(last.op.mapping);
  if (index !== undefined) last.params[index] = creator.params[index];
}

/** Whether every row is in one partition (table + partition key): then they can form a conditional batch. */
function onePartition(rows: readonly Row[]): boolean {
  const first = partitionOf(rows[0] as Row);
  for (let i = 1; i < rows.length; i++) if (partitionOf(rows[i] as Row) !== first) return false;
  return true;
}

function partitionOf({ last }: Row): string {
  const { mapping } = last.op;
  const { partitionLength, keyLength } = writePlanOf(mapping);
  // Without clustering columns the partition key is the whole key: its identity is the row's.
  return partitionLength === keyLength ? last.id : keyIdentity(mapping, last.key.slice(0, partitionLength));
}

/** The unit's duplicate, naming the row's key where the store told which row it was. */
function duplicate(row: Row, known: boolean): StoreError {
  return unitDuplicate(
    row.last.op.mapping,
    known ? 'key' : 'one-of-keys',
    'nothing was written (a conditional batch, or a check before sending)',
  );
}

// One of a unit's objects of each shape stays alive between units, so the code compiled for them
// does too (shape-anchors.ts): the unit, a queued write and its checked form.
keepShape(new CassandraUnitOfWork(undefined as unknown as SessionContext));
const anchorOp = keepShape(queuedWrite('insert', undefined as unknown as EntityMapping, {}, undefined));
keepShape(checkedOp(anchorOp, '', [], [], false));

/** A queued insert/upsert: one place builds it, so the object kept for its shape has that shape. */
function queuedWrite(
  kind: 'insert' | 'upsert',
  mapping: EntityMapping,
  instance: object,
  ttl: PerWriteTtl | undefined,
): Operation {
  return { kind, mapping, instance, ttl };
}

/** An operation with its checked values (one place builds it, as queuedWrite). */
function checkedOp(op: Operation, id: string, params: Params, key: Params, withTtl: boolean): Checked {
  return { op, id, params, key, withTtl };
}
