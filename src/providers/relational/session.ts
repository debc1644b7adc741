import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';
import type { CheckedStep } from '../../core/plan-gate';
import { PlanFlow } from '../../core/plan-flow';
import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult, MigrationPlan, ReviewedPlan } from '../../core/plan';
import type { EntityClass, Model } from '../../model/types';
import { lookupByEntity } from '../../runtime/entity-lookup';
import type {
  ApplyOptions,
  EnsureOptions,
  PlanOptions,
  PurgeOptions,
  Repository,
  StoreSession,
  UnitOfWork,
} from '../contract';
import { checkEnsureOptions, optionsObject } from './arguments';
import type { CompiledSchema } from './compile';
import { sqlFamily } from './families/by-dialect';
import { EXPIRY_COLUMN, TTL_RECORD_TABLE } from './schema/names';
import { EntityTable } from './table/entity-table';
import type { Executor } from './drivers/executor';
import { explainSchema, tablesByEntity } from './explain-entry';
import { inspectTables } from './schema/inspect';
import { RELATIONAL_STORE, type CheckedOptions } from './options';
import { planSteps, type RelationalStep, type StepPayload } from './plan';
import { readRecords } from './schema/ttl-record';
import { checkPurgeOptions, purgeTable, type PurgeHooks, type RelationalPurgeResult } from './purge/purge';
import { RelationalRepository } from './repository';
import type { SchemaRunner } from './drivers/schema-runner';
import { withSchemaLock } from './schema/schema-lock';
import { schemaRunnerFor } from './schema/read-runner';
import { isDestructive, RELATIONAL_STEPS } from './steps';
import { NO_NATIVE_TTL } from './semantics';
import { RelationalUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastTable } from './schema/forecast';

/** A model bound to a relational database through the caller's knex. */
export class RelationalSession implements StoreSession {
  readonly store = 'relational' as const;
  private readonly tables = new Map<EntityClass, EntityTable>();
  private readonly tableOf: (target: unknown) => EntityTable;
  private readonly repositories = new Map<EntityClass, RelationalRepository<unknown>>();
  private closed = false;
  private readonly flow: PlanFlow<StepPayload, 'op', SchemaRunner, undefined, SchemaRunner>;

  constructor(
    private readonly model: Model,
    private readonly schema: CompiledSchema,
    private readonly options: CheckedOptions,
    private readonly executor: Executor,
    target: string,
  ) {
    const byEntity = tablesByEntity(schema);
    for (const entity of model.entities) {
      const spec = byEntity.get(entity.name);
      if (spec)
        this.tables.set(entity.target, new EntityTable(entity, spec, schema.dialect, schema.ttl, options.clock));
    }
    this.tableOf = lookupByEntity(RELATIONAL_STORE, this.tables.values());
    this.flow = new PlanFlow({
      steps: RELATIONAL_STEPS,
      target,
      scope: undefined,
      // One schema lock around a whole apply() or ensureCollections() keeps other processes out.
      hold: (work) => withSchemaLock(this.knex, this.executor, work),
      desired: (demand, runner) => this.diff(runner ?? this.runner(), demand),
      ensure: {
        pick: (steps) => this.ensuredSteps(steps),
        // The schema lock held around the whole run keeps other processes out: no race to lose.
        lostRace: () => false,
        afterLostRace: 'stop',
      },
    });
  }

  /** What ensureCollections() runs: the additive and in-place steps; a non-blocking conflict is logged. */
  private ensuredSteps(steps: readonly CheckedStep<StepPayload>[]): CheckedStep<StepPayload>[] {
    for (const step of steps.filter((s) => s.class === 'conflict')) {
      this.options.logger.warn(`lifespan [relational] ${step.summary}`);
    }
    return steps.filter((s) => (s.class === 'additive' || s.class === 'in-place') && !isDestructive(s));
  }

  private get knex(): Knex {
    return this.options.knex;
  }

  explain(): ExplainEntry[] {
    return explainSchema(this.model, this.schema, this.options.clock !== undefined);
  }

  /**
   * Applies the additive and in-place steps. `allowRetroactive` changes nothing here: emulated
   * expiry is stamped at write, so no step of this store makes a stored row expire sooner (a TTL
   * change, or emulation turned on, reaches new writes only; existing rows get expires_at NULL).
   */
  async ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    this.checkOpen();
    checkEnsureOptions(options);
    if (this.schema.ttl === 'ignore') {
      for (const entity of this.model.entities.filter((e) => e.ttl)) {
        this.options.logger.warn(
          `lifespan [relational] ${entity.name} (${entity.collection}): @TimeToLive(${entity.ttl?.declared}) — ${NO_NATIVE_TTL} (or use ttl: 'emulate')`,
        );
      }
    }
    return this.flow.ensureCollections(options);
  }

  plan(given?: PlanOptions): Promise<MigrationPlan> {
    this.checkOpen();
    return this.flow.plan(given);
  }

  apply(plan: MigrationPlan, given?: ApplyOptions): Promise<ApplyResult> {
    return this.review(plan, given).apply();
  }

  checkPlan(plan: MigrationPlan, given?: ApplyOptions): void {
    this.review(plan, given);
  }

  review(plan: MigrationPlan, given?: ApplyOptions): ReviewedPlan {
    this.checkOpen();
    return this.flow.review(plan, given);
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    this.checkOpen();
    let repository = this.repositories.get(target);
    if (!repository) {
      repository = new RelationalRepository<unknown>(this.tableOf(target), this.executor);
      this.repositories.set(target, repository);
    }
    return repository as RelationalRepository<T>;
  }

  unitOfWork(): UnitOfWork {
    this.checkOpen();
    return new RelationalUnitOfWork((target) => this.tableOf(target), this.executor);
  }

  /** Deletes every row due at `now` (default: the database clock) in every emulated table. */
  async purgeExpired(given?: PurgeOptions, hooks?: PurgeHooks): Promise<RelationalPurgeResult> {
    this.checkOpen();
    const options = optionsObject<PurgeOptions>(given, 'purgeExpired()', '{ batchSize: 1000 }');
    if (this.schema.ttl !== 'emulate') {
      throw new LifespanError(
        'PURGE_NOT_EMULATED',
        `rows carry no expiry with ttl: '${this.schema.ttl}'; there is nothing to purge`,
        {
          store: RELATIONAL_STORE,
          hint: "create the RelationalStore with ttl: 'emulate' to keep and purge expiry",
        },
      );
    }
    const checked = checkPurgeOptions(options);
    const progress = { deleted: 0, batches: 0, skipped: 0, startedAt: performance.now() };
    const byTable: Record<string, number> = {};
    for (const t of this.tables.values()) {
      if (!t.expiryColumn || checked.signal?.aborted) continue;
      byTable[t.spec.table] = await purgeTable(t, this.executor, checked, progress, hooks);
    }
    return { deleted: progress.deleted, batches: progress.batches, skipped: progress.skipped, byTable };
  }

  /** Rows due at `now` (default: the database clock) in every emulated table, in one count query (purge progress). */
  async countExpired(given?: Pick<PurgeOptions, 'now'>): Promise<number> {
    this.checkOpen();
    const options = optionsObject<Pick<PurgeOptions, 'now'>>(given, 'countExpired()', '{ now: new Date() }');
    const { now } = checkPurgeOptions({ ...(options.now ? { now: options.now } : {}) });
    const { dialect } = this.schema;
    const family = sqlFamily(dialect);
    const sql = family.expiry;
    const bound = now === undefined ? undefined : family.encodeInstant(now);
    const tables = this.schema.tables.filter((t) => t.expiry);
    if (tables.length === 0) return 0;
    const at = bound === undefined ? sql.dbNow : sql.nowParam('?');
    const counts = tables.map(
      (t) => `(SELECT COUNT(*) FROM ${family.quote(t.table)} WHERE ${family.quote(EXPIRY_COLUMN)} <= ${at})`,
    );
    const bindings = bound === undefined ? [] : tables.map(() => bound);
    const [row] = await this.runner().rows(`SELECT ${counts.join(' + ')} AS due`, bindings);
    return Number(row?.['due'] ?? 0);
  }

  /** One GROUP BY query per emulated table (forecast.ts); tables without expiry say why. */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    this.checkOpen();
    const runner = this.runner();
    const forecasts: EntityForecast[] = [];
    for (const t of this.tables.values()) forecasts.push(await forecastTable(t, runner, this.schema.ttl, spec));
    return forecasts;
  }

  private runner(): SchemaRunner {
    return schemaRunnerFor(this.knex, this.executor);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.repositories.clear();
    this.executor.close();
  }

  private checkOpen(): void {
    if (this.closed) {
      throw new LifespanError('SESSION_CLOSED', 'this relational session is closed', {
        store: RELATIONAL_STORE,
        hint: 'connect again',
      });
    }
  }

  private async diff(runner: SchemaRunner, options: PlanOptions): Promise<RelationalStep[]> {
    const names = [...this.schema.tables.map((t) => t.table), TTL_RECORD_TABLE];
    const live = await inspectTables(runner, this.schema.dialect, names);
    const recordTableExists = live.get(TTL_RECORD_TABLE) !== null;
    const records = await readRecords(runner, this.schema.dialect, recordTableExists);
    const dueRows = options.counts ? await this.countDue(runner, live) : undefined;
    return planSteps(this.schema, live, {
      allowDestructive: options.allowDestructive === true,
      records,
      recordTableExists,
      counts: options.counts === true,
      ...(dueRows ? { dueRows } : {}),
    });
  }

  /** Rows already due in tables that keep an expires_at column the model no longer emulates. */
  private async countDue(
    runner: SchemaRunner,
    live: Awaited<ReturnType<typeof inspectTables>>,
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const family = sqlFamily(this.schema.dialect);
    for (const table of this.schema.tables) {
      const current = live.get(table.table);
      if (table.expiry || !current?.columns.some((c) => c.name.toLowerCase() === EXPIRY_COLUMN)) continue;
      const now = family.expiry.dbNow;
      const [row] = await runner.rows(
        `SELECT COUNT(*) AS due FROM ${family.quote(table.table)} WHERE ${family.quote(EXPIRY_COLUMN)} <= ${now}`,
      );
      counts.set(table.table, Number(row?.['due'] ?? 0));
    }
    return counts;
  }
}
