import type { StoreError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import type { EntityMapping } from './compile';
import type { SessionContext } from './context';
import { createdAtIndex, keepStoredCreatedAt } from './created-at';
import type { Params } from './executor';
import { UnitOfWorkShell, writeTtl } from '../../runtime/unit-of-work';
import { keyOfRow, keyParams, rowParams, ttlParams } from './rows';
import { keyIdentity, planRows, unitDuplicate, type Operation, type RowPlan } from './row-plan';
import { STORE } from './semantics';
import { ttlClause, type TtlClause } from './write-ttl';

/** One operation with its values checked and stamped (commit() checks every one before sending any). */
interface Checked {
  /** Every column's bound value (writes) or the primary key's (deletes). */
  readonly params: Params;
  readonly clause: TtlClause | undefined;
}

interface Statement {
  readonly query: string;
  readonly params: Params;
  readonly row: RowPlan;
  /** Whether the write carries USING TTL ? (its value is the last bound parameter). */
  readonly withTtl: boolean;
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
    return { kind, mapping, instance, ttl };
  }

  protected deleteOp(mapping: EntityMapping, key: Record<string, unknown>): Operation {
    return { kind: 'delete', mapping, key };
  }

  protected async commitOps(operations: readonly Operation[], commitTtl: PerWriteTtl | undefined): Promise<void> {
    if (operations.length === 0) return;
    const checked = this.check(operations, commitTtl);
    const rows = planRows(operations, (op) => keyOfRow(op.mapping, (checked.get(op) as Checked).params));
    const statements = await Promise.all(
      rows
        .map((row) => this.statement(row, checked))
        .map((s) => (s.row.keepsStoredCreatedAt ? this.keepCreatedAt(s) : s)),
    );
    await this.send(statements);
  }

  /** Every value and TTL of every operation (also those a later one on the same row replaces) is checked first. */
  private check(operations: readonly Operation[], commitTtl: PerWriteTtl | undefined): Map<Operation, Checked> {
    const now = this.ctx.now();
    const clock = this.ctx.clock();
    const checked = new Map<Operation, Checked>();
    for (const op of operations) {
      if (op.kind === 'delete') {
        checked.set(op, { params: keyParams(op.mapping, op.key), clause: undefined });
      } else {
        const clause = ttlClause(op.mapping, writeTtl(op.ttl, commitTtl), clock, op.instance);
        checked.set(op, { params: rowParams(op.mapping, op.instance, now), clause });
      }
    }
    return checked;
  }

  private statement(row: RowPlan, checked: ReadonlyMap<Operation, Checked>): Statement {
    const { last, mapping } = row;
    const statements = this.ctx.statements(mapping);
    const own = checked.get(last) as Checked;
    if (last.kind === 'delete') {
      return { query: statements.deleteByKey(), params: own.params, row, withTtl: false };
    }
    const params = [...own.params];
    // The row as this unit of work leaves it was created by its first write after the last delete.
    const index = createdAtIndex(mapping);
    const creator = row.creator ?? last;
    if (index !== undefined) params[index] = (checked.get(creator) as Checked).params[index];
    const clause = own.clause as TtlClause;
    return {
      query: statements.insert({ withTtl: clause.using, ifNotExists: row.mustBeAbsent }),
      params: [...params, ...ttlParams(clause)],
      row,
      withTtl: clause.using,
    };
  }

  /** An upsert of a row that may be stored already: its stored @CreatedAt is read and written again. */
  private async keepCreatedAt(s: Statement): Promise<Statement> {
    const columns = s.row.mapping.columns.length;
    const values = s.params.slice(0, columns);
    await keepStoredCreatedAt(this.ctx, s.row.mapping, values, PLACE);
    return { ...s, params: [...values, ...s.params.slice(columns)] };
  }

  private async send(statements: readonly Statement[]): Promise<void> {
    const conditional = statements.filter((s) => s.row.mustBeAbsent && s.row.last.kind !== 'delete');
    // An insert the same unit of work then deletes still needs the key to be absent: checked by a read.
    const checkedByRead = statements.filter((s) => s.row.mustBeAbsent && s.row.last.kind === 'delete');
    const partitions = new Set(statements.map(partitionOf));
    if (statements.length === 1 || conditional.length === 0 || partitions.size === 1) {
      await this.requireAbsent(checkedByRead);
      const only = statements.length === 1 ? statements[0] : undefined;
      const result = only
        ? await this.ctx.executor.execute(only.query, only.params, PLACE, 'unit of work')
        : await this.ctx.executor.batch(statements, PLACE, 'unit of work (logged batch)');
      if (conditional.length > 0 && !result.wasApplied()) {
        // A failing read must not hide the duplicate: the error then does not say which key.
        const present =
          conditional.length === 1 ? conditional[0] : await this.firstPresent(conditional).catch(() => undefined);
        // Not found by the read: a racing delete; the batch still names its first insert's table.
        throw duplicate(present ?? (conditional[0] as Statement), present !== undefined);
      }
      return;
    }
    await this.requireAbsent([...conditional, ...checkedByRead]);
    await this.ctx.executor.batch(
      statements.map((s) => (conditional.includes(s) ? this.unconditional(s) : s)),
      PLACE,
      'unit of work (logged batch)',
    );
  }

  private unconditional(s: Statement): Statement {
    return { ...s, query: this.ctx.statements(s.row.mapping).insert({ withTtl: s.withTtl }) };
  }

  private async requireAbsent(rows: readonly Statement[]): Promise<void> {
    const present = await this.firstPresent(rows);
    if (present) throw duplicate(present, true);
  }

  /** The first of the rows a unit of work inserts whose key is stored (the conditional batch does not say which). */
  private async firstPresent(rows: readonly Statement[]): Promise<Statement | undefined> {
    const found = await Promise.all(
      rows.map(async (s) => {
        const { mapping } = s.row;
        const query = this.ctx.statements(mapping).existsByKey();
        const key = keyOfRow(mapping, s.params);
        const result = await this.ctx.executor.execute(query, key, PLACE, 'unit of work (insert check)');
        return result.rows.length > 0;
      }),
    );
    return rows.find((_, i) => found[i]);
  }
}

/** Table + partition key values: statements with the same one can form a conditional batch. */
function partitionOf(s: Statement): string {
  const { mapping } = s.row;
  return keyIdentity(mapping, s.params.slice(0, mapping.partition.length));
}

/** The unit's duplicate, naming the row's key where the store told which row it was. */
function duplicate(s: Statement, known: boolean): StoreError {
  return unitDuplicate(
    s.row.mapping,
    known ? 'key' : 'one-of-keys',
    'nothing was written (a conditional batch, or a check before sending)',
  );
}
