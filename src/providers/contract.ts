import type { EntityForecast, ForecastSpec } from '../core/forecast';
import type { ExplainEntry } from '../explain/entry';
import type { ReadOptions } from '../runtime/touch';
import type { ApplyResult, MigrationPlan } from '../explain/plan';
import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityClass, Model } from '../model/types';
import type { StoreName } from './registry';

/** Driver-free: compiles a model to the store's native terms and explains it. */
export interface StoreExplainer<Options = void> {
  readonly store: StoreName;
  /** Throws ModelError (listing every problem) when the model cannot be compiled for this store. */
  explain(model: Model, options?: Options): ExplainEntry[];
}

/** A key: the value of a single-member key, or an object holding every key member. */
export type KeyInput<T> = string | number | bigint | Date | Partial<T>;

export interface WriteOptions {
  readonly ttl?: PerWriteTtl;
}

export interface FindOptions {
  readonly limit?: number;
}

export interface Repository<T> {
  /** Fails with StoreError (code STORE_DUPLICATE_KEY) when the key exists, where the store can tell. */
  insert(entity: T, options?: WriteOptions): Promise<void>;
  upsert(entity: T, options?: WriteOptions): Promise<void>;
  /** With `{ touch }`, extends the life of what it returns (sliding expiry on read; see ReadOptions). */
  get(key: KeyInput<T>, options?: ReadOptions): Promise<T | undefined>;
  getMany(keys: readonly KeyInput<T>[], options?: ReadOptions): Promise<T[]>;
  /** Equality filters on members. */
  find(where?: Partial<T>, options?: FindOptions): Promise<T[]>;
  exists(key: KeyInput<T>): Promise<boolean>;
  count(where?: Partial<T>): Promise<number>;
  /** True when a live record was deleted. */
  delete(key: KeyInput<T>): Promise<boolean>;
  /** Remaining whole seconds; null: never expires; undefined: no such (live) record. */
  ttl(key: KeyInput<T>): Promise<number | null | undefined>;
  /** Changes the remaining life; false (and no write) when the key does not exist. */
  setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean>;
}

export interface UnitOfWork {
  insert(entity: object, options?: WriteOptions): this;
  upsert(entity: object, options?: WriteOptions): this;
  delete<T>(target: EntityClass<T>, key: KeyInput<T>): this;
  /** Writes everything; `ttl` applies to every write that has none of its own. */
  commit(options?: WriteOptions): Promise<void>;
}

export interface PlanOptions {
  /** Count the stored records each TTL change makes expire at once (one query per step). */
  readonly counts?: boolean;
  /** Plan destructive alternatives (drop and recreate) instead of reporting conflicts. */
  readonly allowDestructive?: boolean;
}

export interface EnsureOptions {
  /** Also apply steps that make stored records expire at once (see ensureCollections). */
  readonly allowRetroactive?: boolean;
  /** Also apply steps that make due-but-stored records readable again (un-expiry; see ensureCollections). */
  readonly allowUnexpiry?: boolean;
}

export interface ApplyOptions {
  readonly allowDestructive?: boolean;
  /**
   * Also apply steps that can make records already stored expire at once (a shorter retroactive
   * TTL, TTL switched on over stored data); without it apply() refuses the whole plan
   * (PLAN_RETROACTIVE_NOT_ALLOWED), as ensureCollections() does.
   */
  readonly allowRetroactive?: boolean;
  /**
   * Also apply steps that can make records that are due but still stored readable again (a
   * lengthened or removed retroactive TTL, emulation turned off); without it apply() refuses the
   * whole plan (PLAN_UNEXPIRY_NOT_ALLOWED).
   */
  readonly allowUnexpiry?: boolean;
}

/**
 * How purgeExpired() runs. A due row another transaction holds locked is passed over rather than
 * waited on (PostgreSQL, MariaDB 10.6+ / MySQL 8): PurgeResult.skipped counts the rows left so.
 */
export interface PurgeOptions {
  /** The instant rows are judged against (default: the database clock). */
  readonly now?: Date;
  /**
   * The most rows one batch deletes (a cap; 1..1,000,000). Batches are otherwise sized by
   * `batchBudgetMs`. With no cap, a PostgreSQL purge where many rows are due walks the table in
   * ranges of heap blocks instead of the expiry index, and a batch is a block range.
   */
  readonly batchSize?: number;
  /**
   * How long one batch may take, in milliseconds (default 50; 1..10,000): the batch size grows
   * while batches finish well under it and shrinks when one goes over, so no batch holds SQLite's
   * write lock or PostgreSQL's / MariaDB's row locks much longer than this.
   */
  readonly batchBudgetMs?: number;
  /**
   * Called after every batch that deleted rows. `deletedSoFar` counts all tables of this purge;
   * `batch` (optional to read) tells what that batch did: `rows` it deleted, `ms` it took (its
   * statements and retries, as the caller's clock saw them), `batches` so far (this one included),
   * the `table` and the purge's `rowsPerSecond` so far.
   */
  readonly onProgress?: (deletedSoFar: number, batch: PurgeBatchInfo) => void;
}

/** What one purge batch did: the second argument of `PurgeOptions.onProgress`. */
export interface PurgeBatchInfo {
  readonly table: string;
  readonly rows: number;
  readonly ms: number;
  readonly batches: number;
  readonly rowsPerSecond: number;
}

export interface PurgeResult {
  readonly deleted: number;
  readonly batches: number;
  /**
   * Rows still due when the purge finished that it left because another transaction held them
   * locked (PostgreSQL, MariaDB 10.6+ / MySQL 8 pass over such rows instead of waiting on them),
   * counted at the end of each table. They stay due, and the next run takes them. 0 on SQLite
   * (one writer) and where the purge waits on locks instead. Where it looks differs by path, on
   * purpose: PostgreSQL's walk of the expiry index and MariaDB/MySQL count the locked due rows of
   * the whole table; PostgreSQL's walk of the heap in block ranges counts them only in the ranges
   * it took past a writer's lock, so a row that became due after the walk passed its block, and
   * is locked at the end, is not counted there (it was never left behind by this purge).
   */
  readonly skipped: number;
}

/** A model bound to a live store: everything that touches a driver. */
export interface StoreSession {
  readonly store: StoreName;
  explain(): ExplainEntry[];
  /**
   * Creates what is missing and applies in-place TTL settings; idempotent; never destructive.
   * A step that would make records already stored expire (a retroactive shortening, TTL turned on
   * or a TTL index created over stored data) is refused with ENSURE_NEEDS_REVIEW unless the
   * collection is empty or `allowRetroactive` is set: such a change belongs in a reviewed plan.
   */
  ensureCollections(options?: EnsureOptions): Promise<ApplyResult>;
  plan(options?: PlanOptions): Promise<MigrationPlan>;
  /**
   * Judges a plan as apply() would, touching nothing: throws the refusal apply() would throw
   * (the plan gate, src/core/plan-gate.ts), so the CLI can check every store before applying any.
   */
  checkPlan(plan: MigrationPlan, options?: ApplyOptions): void;
  /** Runs the plan's steps after the plan gate passed them all (nothing runs when it refuses). */
  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult>;
  repository<T>(target: EntityClass<T>): Repository<T>;
  unitOfWork(): UnitOfWork;
  /** Only stores that emulate expiry have a purge. */
  purgeExpired?(options?: PurgeOptions): Promise<PurgeResult>;
  /** Emulating stores: how many records are due at `now` (one count query; for purge progress). */
  countExpired?(options?: Pick<PurgeOptions, 'now'>): Promise<number>;
  /** Releases what lifespan holds (prepared statements); the caller's driver stays open. */
  close(): Promise<void>;

  // Issue 25: the expiry forecast.
  /**
   * Per entity: how many stored records are due but still stored, expire within each bucket, and
   * never expire; by an aggregate where the store has one, else by a walk of at most `spec.cap`
   * records (then sampled). Options are checked by the caller (core/forecast.ts).
   */
  expiryForecast?(spec: ForecastSpec): Promise<EntityForecast[]>;
}

/** What a user constructs, e.g. `new RelationalStore({ knex })`. */
export interface Store {
  readonly name: StoreName;
  /** Where it points, with secrets masked. */
  describe(): string;
  open(model: Model): Promise<StoreSession>;
}
