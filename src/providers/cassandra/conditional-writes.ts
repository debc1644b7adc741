import { LifespanError, type ErrorPlace } from '../../errors';
import { entityArgument } from '../../runtime/arguments';
import { conditionalWriteOptions, patchChanges, storedVersion } from '../../runtime/conditional-writes';
import {
  adoptVersion,
  retryPatch,
  runDeleteIfVersion,
  runUpdate,
  withInitialVersion,
  type ConditionalPlace,
} from '../../runtime/versioned-writes';
import type { GetOrInsertResult, KeyInput } from '../contract';
import { toCql } from './codec';
import type { ColumnMapping, EntityMapping } from './compile';
import { ConditionalStatements, GuardedPatchStatements } from './conditional-cql';
import type { SessionContext } from './context';
import { keepStoredCreatedAt } from './created-at';
import type { Params, Row } from './executor';
import { keyOfRow, keyParams, rowParams, rowToEntity, ttlParams } from './rows';
import { STORE } from './semantics';
import { ttlClause, type TtlClause } from './write-ttl';

/** What the conditional writes read through the repository: a row's remaining life and newest write. */
export interface CassandraRowFacts {
  remaining(row: Row): number | null;
  newestWritetime(row: Row): bigint | undefined;
}

/**
 * update(), delete({ ifVersion }) and getOrInsert() as lightweight transactions (IF version = ?,
 * IF NOT EXISTS); patch() rewrites the whole row with one TTL (never an UPDATE of some columns,
 * which would give those cells an expiry of their own). Expired cells are invisible to Cassandra
 * itself, so an expired row is absent to every condition (version 0).
 */
export class CassandraConditionalWrites<T> {
  private readonly place: ErrorPlace;
  private conditional: ConditionalStatements | undefined;
  private guarded: GuardedPatchStatements | undefined;

  constructor(
    private readonly ctx: SessionContext,
    private readonly mapping: EntityMapping,
    private readonly facts: CassandraRowFacts,
  ) {
    this.place = { entity: mapping.entity.name, store: STORE };
  }

  update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    return runUpdate(this.conditionalPlace, entity, options, async ({ ttl, expected, next }) => {
      this.refuseCounters('update()');
      const clause = ttlClause(mapping, ttl, this.ctx.clock());
      const row = rowParams(mapping, next, this.ctx.now());
      // Under the condition: a row changed between this read and the batch fails the IF.
      await keepStoredCreatedAt(this.ctx, mapping, row, this.place);
      return expected === 0 ? this.overUnversioned(row, clause) : this.versionedWrite(row, clause, expected, 'update');
    }).then(() => undefined);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const { mapping } = this;
    const keys = (): Params => keyParams(mapping, key);
    return runDeleteIfVersion(this.conditionalPlace, options, {
      exists: async () =>
        (await this.ctx.executor.execute(this.statements().existsByKey(), keys(), this.place, 'delete')).rows.length >
        0,
      deleteAt: async (version) => {
        const params = [...keys(), this.versionParam(version)];
        return (
          await this.ctx.executor.execute(this.cql().deleteIfVersion(), params, this.place, 'delete')
        ).wasApplied();
      },
    });
  }

  /** INSERT … IF NOT EXISTS: applied, or not applied with the live row in the reply. */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T & object;
    this.refuseCounters('getOrInsert()');
    const clause = ttlClause(mapping, ttl, this.ctx.clock());
    const record = withInitialVersion(mapping.entity, given);
    const row = rowParams(mapping, record, this.ctx.now());
    const query = this.statements().insert({ withTtl: clause.using, ifNotExists: true });
    const result = await this.ctx.executor.execute(query, [...row, ...ttlParams(clause)], this.place, 'getOrInsert');
    if (!result.wasApplied()) return { entity: rowToEntity<T>(mapping, result.rows[0] as Row), inserted: false };
    adoptVersion(mapping.entity, given, record);
    return { entity: given, inserted: true };
  }

  /**
   * Reads the row with TTL(), changes the members and writes every column again with one TTL:
   * 'keep' (the default) is the TTL the row's cells have left, read just before (to the second).
   * The write is a conditional batch on what was read (the version, or without one every regular
   * column): a write in between fails it, and the patch reads again.
   */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'patch()', mapping.entity, STORE);
    const members = patchChanges(mapping.entity, changes, STORE);
    this.refuseCounters('patch()');
    const given = ttl === undefined || ttl === 'keep' ? undefined : ttlClause(mapping, ttl, this.ctx.clock());
    const keys = keyParams(mapping, key);
    return retryPatch(this.conditionalPlace, async () => {
      const read = await this.ctx.executor.execute(this.statements().selectTtl(false), keys, this.place, 'patch');
      const stored = read.rows[0];
      if (!stored) return 'absent';
      const clause = given ?? keptClause(this.facts.remaining(stored));
      const row = mapping.columns.map((c) =>
        c.member in members ? toCql(c, members[c.member], mapping.entity.name) : (stored[c.column] as unknown),
      );
      if (mapping.entity.version !== null) {
        const read = stored[this.versionColumn().column];
        const version = storedVersion(read);
        row[mapping.columns.indexOf(this.versionColumn())] = toCql(
          this.versionColumn(),
          version + 1,
          mapping.entity.name,
        );
        // A row stored without a version: IF version = null would also match no row at all.
        if (read !== null && read !== undefined) {
          return (await this.versionedWrite(row, clause, version, 'patch')) ? 'written' : { raced: undefined };
        }
      }
      return (await this.guardedWrite(row, stored, clause)) ? 'written' : { raced: undefined };
    });
  }

  /** The patch of a table without a version: the batch holds IF on every regular column as read. */
  private async guardedWrite(row: Params, stored: Row, clause: TtlClause): Promise<boolean> {
    const { mapping } = this;
    const cql = (this.guarded ??= new GuardedPatchStatements(this.ctx.keyspace, mapping));
    const statements = cql.write(clause.using);
    const valueOf = (c: ColumnMapping) => row[mapping.columns.indexOf(c)];
    const insert = [...cql.insertColumns.map(valueOf), ...ttlParams(clause)];
    const update = [
      ...ttlParams(clause),
      valueOf(cql.setColumn),
      ...keyOfRow(mapping, row),
      ...cql.conditionColumns.map((c) => stored[c.column] ?? null),
    ];
    const result = await this.ctx.executor.batch(
      [
        { query: statements.insert, params: insert },
        { query: statements.update, params: update },
      ],
      this.place,
      'patch',
    );
    return result.wasApplied();
  }

  /** Counter rows change by increments only (as setTtl refuses): no conditional rewrite of them. */
  private refuseCounters(call: string): void {
    if (!this.mapping.isCounter) return;
    throw new LifespanError('CASSANDRA_COUNTER_WRITE', `${call} cannot rewrite a counter row`, {
      ...this.place,
      hint: 'update counters with your own UPDATE … SET c = c + ? statement (counters do not expire)',
    });
  }

  private versionParam(version: number): unknown {
    return toCql(this.versionColumn(), version, this.mapping.entity.name);
  }

  /**
   * update() of version 0 (a row stored without one): `IF version = null` would also apply to no
   * row at all, so the row is read and written on every regular column as read (none: a conflict).
   */
  private async overUnversioned(row: Params, clause: TtlClause): Promise<boolean> {
    const keys = keyOfRow(this.mapping, row);
    const read = await this.ctx.executor.execute(this.statements().selectTtl(false), keys, this.place, 'update');
    const stored = read.rows[0];
    if (!stored || storedVersion(stored[this.versionColumn().column]) !== 0) return false;
    return this.guardedWrite(row, stored, clause);
  }

  /** The conditional batch: INSERT of the other columns, UPDATE of the version IF version = expected. */
  private async versionedWrite(row: Params, clause: TtlClause, expected: number, what: string): Promise<boolean> {
    const { mapping } = this;
    const cql = this.cql();
    const statements = cql.versionedWrite(clause.using);
    const valueOf = (c: ColumnMapping) => row[mapping.columns.indexOf(c)];
    const version = this.versionColumn();
    const insert = [...cql.insertColumns.map(valueOf), ...ttlParams(clause)];
    const update = [...ttlParams(clause), valueOf(version), ...keyOfRow(mapping, row), this.versionParam(expected)];
    const result = await this.ctx.executor.batch(
      [
        { query: statements.insert, params: insert },
        { query: statements.update, params: update },
      ],
      this.place,
      what,
    );
    return result.wasApplied();
  }

  private versionColumn(): ColumnMapping {
    const member = this.mapping.entity.version as string;
    return this.mapping.columns.find((c) => c.member === member) as ColumnMapping;
  }

  private cql(): ConditionalStatements {
    return (this.conditional ??= new ConditionalStatements(this.ctx.keyspace, this.mapping));
  }

  private statements() {
    return this.ctx.statements(this.mapping);
  }

  private get conditionalPlace(): ConditionalPlace {
    return { entity: this.mapping.entity, store: STORE, collection: this.mapping.table.name };
  }
}

/** The remaining life as a TTL clause: n seconds, or 0 (never) for a row whose cells never expire. */
function keptClause(remaining: number | null): TtlClause {
  return { using: true, seconds: remaining ?? 0 };
}
