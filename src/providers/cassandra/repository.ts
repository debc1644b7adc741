import { LifespanError } from '../../errors';
import type { PerWriteTtl } from '../../model/per-write-ttl';
import {
  entityArgument,
  filterArgument,
  findLimit,
  keysArgument,
  unknownMember,
  writeOptions,
} from '../../runtime/arguments';
import { duplicateKey } from '../../runtime/key-errors';
import { adoptVersion, withInitialVersion, withUpsertVersion } from '../../runtime/versioned-writes';
import type { DeleteOptions, FindOptions, GetOrInsertResult, KeyInput, Repository, WriteOptions } from '../contract';
import { CassandraConditionalWrites } from './conditional-writes';
import { refuseSetTtlOnMember } from '../../runtime/write-instant';
import { toCql } from './codec';
import type { ColumnMapping, EntityMapping } from './compile';
import type { SessionContext } from './context';
import { keepStoredCreatedAt } from './created-at';
import type { Params, Row } from './executor';
import { keyParams, rowParams, rowToEntity, ttlParams } from './rows';
import { MAX_LIMIT, STORE } from './semantics';
import { longestCellTtl, readExpiryInstant } from './expiry-instant';
import { ttlClause } from './write-ttl';
import type { DeleteManyOptions, IterateOptions, Page, PageOptions } from '../contract';
import { deleteManyRequest } from '../../runtime/delete-many';
import { iteratePages } from '../../runtime/pages';
import { cassandraDeleteMany, cassandraPage, type CassandraPages } from './pages';
import type { CheckedTouch } from '../../runtime/touch';
import { touchRefused } from './touch';

/** One entity's table: every write is an INSERT of every column with one TTL (row-granular expiry). */
export class CassandraRepository<T> implements Repository<T> {
  private readonly place: { entity: string; store: string };
  private readonly conditional: CassandraConditionalWrites<T>;

  constructor(
    private readonly ctx: SessionContext,
    private readonly mapping: EntityMapping,
  ) {
    this.place = { entity: mapping.entity.name, store: STORE };
    this.conditional = new CassandraConditionalWrites<T>(ctx, mapping, {
      remaining: (row) => this.remaining(row),
      newestWritetime: (row) => this.newestWritetime(row),
    });
  }

  /** INSERT … IF NOT EXISTS: a lightweight transaction, so an existing key is reported, never overwritten. */
  async insert(entity: T, options?: WriteOptions): Promise<void> {
    const { ttl } = writeOptions(options, 'insert()', STORE);
    const given = entityArgument(entity, 'insert()', this.mapping.entity, STORE);
    const record = withInitialVersion(this.mapping.entity, given);
    const clause = ttlClause(this.mapping, ttl, this.ctx.clock(), record);
    const row = rowParams(this.mapping, record, this.ctx.now());
    const query = this.statements().insert({ withTtl: clause.using, ifNotExists: true });
    const result = await this.ctx.executor.execute(query, [...row, ...ttlParams(clause)], this.place, 'insert');
    if (!result.wasApplied()) {
      const { entity: model, table } = this.mapping;
      throw duplicateKey({ store: STORE, entity: model, collection: table.name, hit: 'key' });
    }
    adoptVersion(this.mapping.entity, given, record);
  }

  /** A plain INSERT of every column; an existing row keeps its @CreatedAt (read first, see created-at.ts). */
  async upsert(entity: T, options?: WriteOptions): Promise<void> {
    const { ttl } = writeOptions(options, 'upsert()', STORE);
    const given = entityArgument(entity, 'upsert()', this.mapping.entity, STORE);
    const record = withUpsertVersion(this.mapping.entity, given);
    const clause = ttlClause(this.mapping, ttl, this.ctx.clock(), record);
    const row = rowParams(this.mapping, record, this.ctx.now());
    await keepStoredCreatedAt(this.ctx, this.mapping, row, this.place);
    const query = this.statements().insert({ withTtl: clause.using });
    await this.ctx.executor.execute(query, [...row, ...ttlParams(clause)], this.place, 'upsert');
    adoptVersion(this.mapping.entity, given, record);
  }

  async get(key: KeyInput<T>): Promise<T | undefined> {
    const params = keyParams(this.mapping, key);
    const result = await this.ctx.executor.execute(this.statements().selectByKey(), params, this.place, 'get');
    const row = result.rows[0];
    return row ? rowToEntity<T>(this.mapping, row) : undefined;
  }

  async getMany(keys: readonly KeyInput<T>[]): Promise<T[]> {
    const checked = keysArgument<KeyInput<T>>(keys, 'getMany()', this.place);
    // Every key is checked before any read is sent.
    checked.forEach((k) => keyParams(this.mapping, k));
    const found = await Promise.all(checked.map((k) => this.get(k)));
    return found.filter((e): e is Awaited<T> => e !== undefined) as T[];
  }

  async find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    const { columns, params } = this.filter(filterArgument(where, 'find()', this.place));
    const limit = findLimit(options, this.place, MAX_LIMIT);
    const query = this.statements().selectWhere(columns, { count: false, ...(limit === undefined ? {} : { limit }) });
    const rows = await this.ctx.executor.all(query, params, this.place, 'find', limit);
    return rows.map((r) => rowToEntity<T>(this.mapping, r));
  }

  async exists(key: KeyInput<T>): Promise<boolean> {
    const params = keyParams(this.mapping, key);
    const result = await this.ctx.executor.execute(this.statements().existsByKey(), params, this.place, 'exists');
    return result.rows.length > 0;
  }

  async count(where?: Partial<T>): Promise<number> {
    const { columns, params } = this.filter(filterArgument(where, 'count()', this.place));
    const query = this.statements().selectWhere(columns, { count: true });
    const result = await this.ctx.executor.execute(query, params, this.place, 'count');
    return Number(String(result.rows[0]?.['count'] ?? 0));
  }

  /** Cassandra's DELETE does not say whether a row was there, so it is looked up first (not atomic). */
  async delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean> {
    const conditional = await this.conditional.deleteIfVersion(key, options);
    if (conditional !== undefined) return conditional;
    const params = keyParams(this.mapping, key);
    const existed = await this.exists(key);
    await this.ctx.executor.execute(this.statements().deleteByKey(), params, this.place, 'delete');
    return existed;
  }

  /**
   * TTL() of the row's cells. lifespan writes one TTL per row; for rows written otherwise the row lives
   * as long as its longest-lived cell, so that is reported (null when any cell holding a value never expires).
   */
  async ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    const params = keyParams(this.mapping, key);
    const statements = this.statements();
    if (this.mapping.isCounter) return (await this.exists(key)) ? null : undefined;
    this.requireTtlColumns();
    const result = await this.ctx.executor.execute(statements.selectTtl(false), params, this.place, 'ttl');
    const row = result.rows[0];
    if (!row) return undefined;
    return this.remaining(row);
  }

  /** The coordinator's clock + TTL() in one read (expiry-instant.ts); 1 s precision. */
  async expiresAt(key: KeyInput<T>): Promise<Date | null | undefined> {
    const params = keyParams(this.mapping, key);
    if (this.mapping.isCounter) return (await this.exists(key)) ? null : undefined;
    return readExpiryInstant(this.ctx, this.mapping, params, this.place);
  }

  /**
   * Cassandra cannot change a stored cell's TTL: the row is read and every column rewritten with
   * INSERT … USING TTL, timestamped one microsecond after the newest cell it read, so a write or
   * delete that lands in between (with a later timestamp) still wins.
   */
  async setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    refuseSetTtlOnMember(this.mapping.entity, STORE);
    if (ttl === 'keep') return this.exists(key);
    const clause = ttlClause(this.mapping, ttl, this.ctx.clock());
    if (this.mapping.isCounter) {
      throw new LifespanError('CASSANDRA_COUNTER_WRITE', 'a counter row cannot be rewritten with a TTL', {
        ...this.place,
        hint: 'counters do not expire',
      });
    }
    const keys = keyParams(this.mapping, key);
    const statements = this.statements();
    const read = await this.ctx.executor.readForWrite(statements.selectTtl(true), keys, this.place, 'setTtl (read)');
    const row = read.rows[0];
    if (!row) return false;
    const newest = this.newestWritetime(row);
    const query = statements.insert({ withTtl: clause.using, timestamp: newest !== undefined });
    const params: Params = [
      ...this.mapping.columns.map((c) => row[c.column] as unknown),
      ...ttlParams(clause),
      ...(newest === undefined ? [] : [(newest + 1n).toString()]),
    ];
    await this.ctx.executor.execute(query, params, this.place, 'setTtl (rewrite)');
    return true;
  }

  // Conditional writes, get-or-insert and partial updates (conditional-writes.ts).
  update(entity: T, options?: WriteOptions): Promise<void> {
    return this.conditional.update(entity, options);
  }

  getOrInsert(entity: T, options?: WriteOptions): Promise<GetOrInsertResult<T>> {
    return this.conditional.getOrInsert(entity, options);
  }

  patch(key: KeyInput<T>, changes: Partial<T>, options?: WriteOptions): Promise<boolean> {
    return this.conditional.patch(key, changes, options);
  }

  // findPage / iterate / deleteMany (issue 26): ./pages.ts
  /** Cassandra's paging state: pages hold at most `limit` rows, fewer (even none) where the node filters. */
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>> {
    return cassandraPage<T>(this.pages(), where, options);
  }

  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T> {
    return iteratePages<T>((w, o) => this.findPage(w, o), where, options, this.place);
  }

  async deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number> {
    return cassandraDeleteMany(this.pages(), deleteManyRequest(where, options, this.place));
  }

  private pages(): CassandraPages {
    return {
      ctx: this.ctx,
      mapping: this.mapping,
      place: this.place,
      filter: (where) => this.filter(where),
    };
  }

  /** get()/getMany() with { touch } (issue 25): refused before anything is read (touch.ts). */
  async getTouched(_keys: readonly KeyInput<T>[], touch: CheckedTouch): Promise<Array<T | undefined>> {
    throw touchRefused(this.mapping.entity, touch);
  }

  private remaining(row: Row): number | null {
    const columns = this.statements()
      .ttlColumns()
      .map((c) => c.column);
    return longestCellTtl(row, columns, this.place);
  }

  private newestWritetime(row: Row): bigint | undefined {
    let newest: bigint | undefined;
    for (const i of this.statements().ttlColumns().keys()) {
      const raw = row[`wt_${i}`] as unknown;
      if (raw === null || raw === undefined) continue;
      const micros = typeof raw === 'bigint' ? raw : BigInt(String(raw));
      if (newest === undefined || micros > newest) newest = micros;
    }
    return newest;
  }

  private requireTtlColumns(): void {
    if (this.statements().ttlColumns().length > 0) return;
    throw new LifespanError('CASSANDRA_TTL_UNREADABLE', 'the table has only key columns', {
      ...this.place,
      hint: 'Cassandra reports TTL() only for non-key cells; add a non-key member to read the remaining life',
    });
  }

  private filter(where: Record<string, unknown>): { columns: ColumnMapping[]; params: Params } {
    const columns: ColumnMapping[] = [];
    const params: Params = [];
    for (const [member, value] of Object.entries(where)) {
      if (value === undefined) continue;
      const column = this.mapping.columns.find((c) => c.member === member);
      if (!column) {
        throw unknownMember(
          member,
          this.mapping.columns.map((c) => c.member),
          this.place,
        );
      }
      if (value === null || column.fieldType === 'json' || column.fieldType === 'counter') {
        throw new LifespanError(
          'CASSANDRA_FILTER_UNSUPPORTED',
          value === null
            ? `cannot filter on ${member} = null: CQL has no equality with null`
            : `cannot filter on a ${column.fieldType} member`,
          { ...this.place, member, hint: 'filter on key members or plain values' },
        );
      }
      columns.push(column);
      params.push(toCql({ ...column, kind: 'regular', nullable: false }, value, this.mapping.entity.name));
    }
    return { columns, params };
  }

  private statements() {
    return this.ctx.statements(this.mapping);
  }
}
