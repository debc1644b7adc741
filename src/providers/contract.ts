import type { EntityForecast, ForecastSpec } from '../core/forecast';
import type { ExplainEntry } from '../explain/entry';
import type { ApplyResult, MigrationPlan, ReviewedPlan } from '../core/plan';
import type { DurationInput } from '../model/duration';
import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityClass, Model } from '../model/types';
import type { ConnectionErrorPatterns } from './connection-patterns';

/** Driver-free: compiles a model to the store's native terms and explains it. */
export interface StoreExplainer<Options = void> {
  /** The store it explains for: its descriptor's name (built in: one of STORE_NAMES). */
  readonly store: string;
  /** Throws ModelError (listing every problem) when the model cannot be compiled for this store. */
  explain(model: Model, options?: Options): ExplainEntry[];
}

/** A key: the value of a single-member key, or an object holding every key member. */
export type KeyInput<T> = string | number | bigint | Date | Partial<T>;

export interface WriteOptions {
  readonly ttl?: PerWriteTtl;
}

/**
 * Sliding expiry on read (issue 25): `get(key, { touch, touchBelow })` extends the life of what it
 * returns to at least now + touch, only when less than `touchBelow` × touch remains (default 1:
 * whenever that extends it), so most reads of a hot record do not write (Aerospike's read-touch).
 * A touch never shortens a life and never gives one to a record that does not expire.
 */
export interface ReadOptions {
  /** Extend the life of each record read to at least now + this duration. */
  readonly touch?: DurationInput;
  /** Only touch when less than this fraction of `touch` remains (0 < touchBelow ≤ 1; default 1). */
  readonly touchBelow?: number;
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
  /**
   * True when a live record was deleted. With `ifVersion` (an entity with @Version) only a live
   * record of that version is deleted; another version is a STORE_VERSION_CONFLICT, nothing deleted.
   */
  delete(key: KeyInput<T>, options?: DeleteOptions): Promise<boolean>;
  /** Remaining whole seconds; null: never expires; undefined: no such (live) record. */
  ttl(key: KeyInput<T>): Promise<number | null | undefined>;
  /** Changes the remaining life; false (and no write) when the key does not exist. */
  setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean>;

  // Conditional writes, get-or-insert and partial updates (issue 26). An expired-but-stored record
  // is absent to each of them on every store (version 0).
  /**
   * Writes the whole entity when the stored live record has the entity's @Version value; stores
   * version + 1 and sets it on the entity. Otherwise a StoreError STORE_VERSION_CONFLICT and
   * nothing written. `ttl` as for upsert (default: the entity default).
   */
  update(entity: T, options?: WriteOptions): Promise<void>;
  /** The live record when there is one, else `entity` inserted (with its TTL): one atomic step. */
  getOrInsert(entity: T, options?: WriteOptions): Promise<GetOrInsertResult<T>>;
  /**
   * Changes the given members of a live record (false, nothing written, when there is none).
   * `ttl` defaults to 'keep' where the store keeps the expiry exactly; explain() says per store.
   */
  patch(key: KeyInput<T>, changes: Partial<T>, options?: WriteOptions): Promise<boolean>;
  // Pages, streams and delete by filter (issue 26; docs/reading-and-writing.md).
  /**
   * One page of the live records matching `where` (equality filters, as find()), on the store's own
   * paging: `cursor` absent means the last page. Expired records are left out as judged at this
   * page's own "now". Pages are ordered by key and full (but the last) on relational stores and
   * MongoDB; Cassandra (a filtered scan), Cosmos DB and Redis (SCAN: unordered, a record may repeat
   * on a later page) may return short or empty pages with a cursor. A cursor this call did not make
   * (changed, another store, entity or filter) is a CURSOR_INVALID error.
   */
  findPage(where?: Partial<T>, options?: PageOptions): Promise<Page<T>>;
  /** Every live match, page by page (findPage underneath): memory is bounded by `pageSize`. */
  iterate(where?: Partial<T>, options?: IterateOptions): AsyncIterable<T>;
  /**
   * Deletes the live records matching `where`, in batches, and returns how many it deleted. The
   * rule for concurrent writes: a record rewritten after its batch selected it is spared (not
   * deleted, not counted); one written before its batch selects it is judged as it is then (each
   * store's re-check: see docs/reading-and-writing.md). An empty filter deletes nothing unless
   * `{ all: true }` is given.
   */
  deleteMany(where: Partial<T>, options?: DeleteManyOptions): Promise<number>;
  // Expiry instants (issue 25).
  /**
   * When the record expires: null when it never does; undefined when there is no live record. Read
   * natively, with each store's precision: Redis PEXPIRETIME and the relational `expires_at` to
   * the millisecond, MongoDB's expiry date (or date member + expireAfterSeconds) to the
   * millisecond, Cosmos DB `_ts` + ttl and Cassandra's coordinator clock + TTL() to the second.
   */
  expiresAt(key: KeyInput<T>): Promise<Date | null | undefined>;
}

export interface DeleteOptions {
  /** Delete only when the stored live record has this @Version value. */
  readonly ifVersion?: number;
}

export interface GetOrInsertResult<T> {
  readonly entity: T;
  /** True when this call inserted `entity`; false when a live record was there. */
  readonly inserted: boolean;
}

/** findPage()'s options: `limit` 1..10,000 (default 100) and the previous page's `cursor`. */
export interface PageOptions {
  readonly limit?: number;
  readonly cursor?: string;
}

/** One page: its records, and the cursor of the next page (absent: this was the last). */
export interface Page<T> {
  readonly items: T[];
  readonly cursor?: string;
}

/** iterate()'s options: records read per page, 1..10,000 (default 100). */
export interface IterateOptions {
  readonly pageSize?: number;
}

/** deleteMany()'s options. */
export interface DeleteManyOptions {
  /** Records selected (and deleted) per batch, 1..10,000 (default 500). */
  readonly batchSize?: number;
  /** Consent to an empty filter: delete every live record of the entity. */
  readonly all?: boolean;
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

  /**
   * Stops the purge once aborted: checked after every batch (also one that deleted nothing) and
   * before every table; the running batch ends, and the result counts what was deleted so far.
   */
  readonly signal?: AbortSignal;
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
  readonly store: string;
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
   * (the plan gate, src/core/plan-gate.ts).
   */
  checkPlan(plan: MigrationPlan, options?: ApplyOptions): void;
  /** Runs the plan's steps after the plan gate passed them all (nothing runs when it refuses). */
  apply(plan: MigrationPlan, options?: ApplyOptions): Promise<ApplyResult>;
  /**
   * The plan gate's verdict, whose apply() runs what was judged without judging it again (the
   * core's plan flow, src/core/plan-flow.ts): connect()'s apply() and `lifespan apply` judge a
   * plan once through it. Absent on a session that does not judge plans by the gate; apply()
   * then also refuses by the steps' labels.
   */
  review?(plan: MigrationPlan, options?: ApplyOptions): ReviewedPlan;
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
  /**
   * The store's own name, in its entries, plans and errors: a built-in store's is one of
   * STORE_NAMES, a store written outside lifespan names itself.
   */
  readonly name: string;
  /** Where it points, with secrets masked. */
  describe(): string;
  open(model: Model): Promise<StoreSession>;
  /**
   * How its driver reports a failure to connect, read by connect() and the calls that talk to
   * the store (a built-in store's are its descriptor's, found by `name`). Without them a failure
   * is still a StoreError: STORE_UNREACHABLE for the network codes every driver shares, else
   * STORE_CONNECT_FAILED.
   */
  readonly connectionErrors?: ConnectionErrorPatterns;
}
