import type { ErrorPlace } from '../../errors';
import { entityArgument } from '../../runtime/arguments';
import {
  conditionalWriteOptions,
  deleteOptions,
  expectedVersion,
  patchChanges,
  setVersion,
  versionConflict,
} from '../../runtime/conditional-writes';
import type { GetOrInsertResult, KeyInput } from '../contract';
import { toCql } from './codec';
import type { ColumnMapping, EntityMapping } from './compile';
import { ConditionalStatements } from './conditional-cql';
import type { SessionContext } from './context';
import { keepStoredCreatedAt } from './created-at';
import type { Params, Row } from './executor';
import { keyOfRow, keyParams, rowParams, rowToEntity, ttlParams } from './rows';
import { STORE } from './semantics';
import { ttlClause, type TtlClause } from './write-ttl';

/** A versioned patch whose row keeps changing under it gives up after this many reads. */
const PATCH_ATTEMPTS = 5;

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

  constructor(
    private readonly ctx: SessionContext,
    private readonly mapping: EntityMapping,
    private readonly facts: CassandraRowFacts,
  ) {
    this.place = { entity: mapping.entity.name, store: STORE };
  }

  async update(entity: T, options: unknown): Promise<void> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'update()', mapping.entity, STORE);
    const given = entityArgument(entity, 'update()', mapping.entity, STORE);
    const expected = expectedVersion(mapping.entity, given, STORE);
    const clause = ttlClause(mapping, ttl, this.ctx.clock());
    const next = { ...(given as Record<string, unknown>), [mapping.entity.version as string]: expected + 1 };
    const row = rowParams(mapping, next, this.ctx.now());
    // Under the condition: a row changed between this read and the batch fails the IF.
    await keepStoredCreatedAt(this.ctx, mapping, row, this.place);
    const applied = await this.versionedWrite(row, clause, expected, 'update');
    if (!applied) throw this.conflict('update()', expected);
    setVersion(mapping.entity, given, expected + 1);
  }

  /** Undefined when no ifVersion was given: the plain delete runs. */
  async deleteIfVersion(key: KeyInput<T>, options: unknown): Promise<boolean | undefined> {
    const { mapping } = this;
    const { ifVersion } = deleteOptions(options, mapping.entity, STORE);
    if (ifVersion === undefined) return undefined;
    const keys = keyParams(mapping, key);
    if (ifVersion === 0) {
      const found = await this.ctx.executor.execute(this.statements().existsByKey(), keys, this.place, 'delete');
      if (found.rows.length > 0) throw this.conflict('delete()', 0);
      return false;
    }
    const params = [...keys, toCql(this.versionColumn(), ifVersion, mapping.entity.name)];
    const result = await this.ctx.executor.execute(this.cql().deleteIfVersion(), params, this.place, 'delete');
    if (!result.wasApplied()) throw this.conflict('delete()', ifVersion);
    return true;
  }

  /** INSERT … IF NOT EXISTS: applied, or not applied with the live row in the reply. */
  async getOrInsert(entity: T, options: unknown): Promise<GetOrInsertResult<T>> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'getOrInsert()', mapping.entity, STORE);
    const given = entityArgument(entity, 'getOrInsert()', mapping.entity, STORE) as T;
    const clause = ttlClause(mapping, ttl, this.ctx.clock());
    setVersion(mapping.entity, given as object, 1);
    const row = rowParams(mapping, given as object, this.ctx.now());
    const query = this.statements().insert({ withTtl: clause.using, ifNotExists: true });
    const result = await this.ctx.executor.execute(query, [...row, ...ttlParams(clause)], this.place, 'getOrInsert');
    if (result.wasApplied()) return { entity: given, inserted: true };
    return { entity: rowToEntity<T>(mapping, result.rows[0] as Row), inserted: false };
  }

  /**
   * Reads the row with TTL() and WRITETIME(), changes the members and writes every column again
   * with one TTL: 'keep' (the default) is the TTL the row's cells have left, read just before (to
   * the second). A versioned row is written by the conditional batch on the version read (a write in
   * between fails it, and the patch reads again); another row by an INSERT timestamped after the
   * newest cell read, so a write or delete that lands in between still wins.
   */
  async patch(key: KeyInput<T>, changes: unknown, options: unknown): Promise<boolean> {
    const { mapping } = this;
    const { ttl } = conditionalWriteOptions(options, 'patch()', mapping.entity, STORE);
    const members = patchChanges(mapping.entity, changes, STORE);
    const given = ttl === undefined || ttl === 'keep' ? undefined : ttlClause(mapping, ttl, this.ctx.clock());
    const keys = keyParams(mapping, key);
    for (let attempt = 1; attempt <= PATCH_ATTEMPTS; attempt += 1) {
      const read = await this.ctx.executor.execute(this.statements().selectTtl(true), keys, this.place, 'patch');
      const stored = read.rows[0];
      if (!stored) return false;
      const clause = given ?? keptClause(this.facts.remaining(stored));
      const row = mapping.columns.map((c) =>
        c.member in members ? toCql(c, members[c.member], mapping.entity.name) : (stored[c.column] as unknown),
      );
      if (mapping.entity.version === null) {
        await this.timestampedInsert(row, clause, this.facts.newestWritetime(stored));
        return true;
      }
      const version = Number(stored[this.versionColumn().column] ?? 0);
      const index = mapping.columns.indexOf(this.versionColumn());
      row[index] = toCql(this.versionColumn(), version + 1, mapping.entity.name);
      if (await this.versionedWrite(row, clause, version, 'patch')) return true;
    }
    return false;
  }

  /** The conditional batch: INSERT of the other columns, UPDATE of the version IF version = expected. */
  private async versionedWrite(row: Params, clause: TtlClause, expected: number, what: string): Promise<boolean> {
    const { mapping } = this;
    const cql = this.cql();
    const statements = cql.versionedWrite(clause.using);
    const valueOf = (c: ColumnMapping) => row[mapping.columns.indexOf(c)];
    const version = this.versionColumn();
    const insert = [...cql.insertColumns.map(valueOf), ...ttlParams(clause)];
    const update = [
      ...ttlParams(clause),
      valueOf(version),
      ...keyOfRow(mapping, row),
      toCql(version, expected, mapping.entity.name),
    ];
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

  private async timestampedInsert(row: Params, clause: TtlClause, newest: bigint | undefined): Promise<void> {
    const query = this.statements().insert({ withTtl: clause.using, timestamp: newest !== undefined });
    const params = [...row, ...ttlParams(clause), ...(newest === undefined ? [] : [(newest + 1n).toString()])];
    await this.ctx.executor.execute(query, params, this.place, 'patch');
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

  private conflict(call: 'update()' | 'delete()', expected: number) {
    const { mapping } = this;
    return versionConflict({ store: STORE, entity: mapping.entity, collection: mapping.table.name, call, expected });
  }
}

/** The remaining life as a TTL clause: n seconds, or 0 (never) for a row whose cells never expire. */
function keptClause(remaining: number | null): TtlClause {
  return { using: true, seconds: remaining ?? 0 };
}
