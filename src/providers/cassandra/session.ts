import { PlannedSession } from '../../core/planned-session';
import { StoreError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { ApplyResult } from '../../core/plan';
import { PlanFlow } from '../../core/plan-flow';
import type { PlanDemand } from '../../core/plan-flow-rules';
import type { EntityClass } from '../../model/types';
import type { EnsureOptions, Repository, StoreSession, UnitOfWork } from '../contract';
import type { SessionContext } from './context';
import { explainMapping } from './explain-entry';
import { inspectKeyspace } from './inspect';
import type { Executor } from './executor';
import { diffSchema, type CassandraPlanStep, type CassandraStepPayload } from './plan';
import { CassandraRepository } from './repository';
import { CASSANDRA_STEPS } from './steps';
import type { KeyspaceSchema } from './schema';
import { STORE } from './semantics';
import { readClusterSettings, type ClusterSettings } from './cluster-settings';
import type { CassandraConsistency, ClientLevels } from './consistency';
import { qualified } from './cql';
import { CassandraUnitOfWork } from './unit-of-work';
import type { EntityForecast, ForecastSpec } from '../../core/forecast';
import { forecastTable } from './forecast';

export class CassandraSession extends PlannedSession implements StoreSession {
  readonly store = 'cassandra' as const;
  private settings: ClusterSettings | null = null;

  protected readonly flow: PlanFlow<CassandraStepPayload, 'op', Executor, undefined, Executor>;

  constructor(
    private readonly ctx: SessionContext,
    target: string,
    private readonly consistency: CassandraConsistency = {},
    private readonly clientDefaults: ClientLevels = {},
  ) {
    super();
    this.flow = new PlanFlow({
      steps: CASSANDRA_STEPS,
      target,
      scope: undefined,
      hold: (work) => work(this.ctx.executor),
      desired: (demand) => this.desired(demand),
      // ensureCollections() and apply() may create tables: explain() shows their settings.
      afterRun: () => this.refreshClusterSettings(),
      ensure: {
        // A failed ADD of a column another process added first: the other steps still run, then the
        // keyspace is inspected again (the column is found there, or the failure was real).
        lostRace: (error, step) => step.payload.op === 'add-column' && error instanceof StoreError,
        afterLostRace: 'finish',
      },
    });
  }

  explain(): ExplainEntry[] {
    const explainCtx = {
      clock: this.ctx.clock(),
      keyspace: this.ctx.keyspace,
      cluster: { consistency: this.consistency, settings: this.settings, clientDefaults: this.clientDefaults },
    };
    return this.ctx.compiled.mappings.map((m) => explainMapping(m, explainCtx));
  }

  /**
   * Reads each table's gc_grace_seconds and the node's hint and tombstone settings for explain()
   * (which is synchronous) when the store connects.
   */
  async readClusterSettings(): Promise<void> {
    const names = this.ctx.compiled.mappings.map((m) => m.table.name);
    this.settings = await readClusterSettings(this.ctx.executor, this.ctx.keyspace, names);
  }

  /**
   * The same after ensureCollections() and apply(), which may create tables. Their change is done by
   * then: a failed read must not fail it, so explain() keeps the settings read when connected.
   */
  private async refreshClusterSettings(): Promise<void> {
    try {
      await this.readClusterSettings();
    } catch {
      // keep the previous settings
    }
  }

  /**
   * Creates missing tables and columns and sets default_time_to_live, never dropping anything. Safe
   * to run from several processes at once: tables are created IF NOT EXISTS, every statement waits
   * for schema agreement, and a column another process added first is found on re-inspection.
   *
   * `allowRetroactive` changes nothing here: Cassandra stamps each cell's expiry when it is written,
   * so no step ensureCollections() runs (a new table or column, a new default_time_to_live) can make
   * a row already stored expire sooner.
   */
  override ensureCollections(options?: EnsureOptions): Promise<ApplyResult> {
    return this.flow.ensureCollections(options);
  }

  repository<T>(target: EntityClass<T>): Repository<T> {
    return new CassandraRepository<T>(this.ctx, this.ctx.mappingOf(target));
  }

  unitOfWork(): UnitOfWork {
    return new CassandraUnitOfWork(this.ctx);
  }

  /** A paged TTL() walk per table, at most spec.cap rows each (forecast.ts). */
  async expiryForecast(spec: ForecastSpec): Promise<EntityForecast[]> {
    const forecasts: EntityForecast[] = [];
    for (const m of this.ctx.compiled.mappings) {
      forecasts.push(await forecastTable(this.ctx.executor, this.ctx.keyspace, m, spec));
    }
    return forecasts;
  }

  /** Nothing to release: prepared statements belong to the caller's client, which stays open. */
  async close(): Promise<void> {}

  private inspect(): Promise<KeyspaceSchema> {
    const names = this.ctx.compiled.mappings.map((m) => m.table.name);
    return inspectKeyspace(this.ctx.executor, this.ctx.keyspace, names);
  }

  /** The steps from the live keyspace to the model; with counts, re-diffed with each table's row count. */
  private async desired(demand: PlanDemand): Promise<CassandraPlanStep[]> {
    const live = await this.inspect();
    const diffOptions = { allowDestructive: demand.allowDestructive };
    const steps = diffSchema(this.ctx.compiled.mappings, live, diffOptions);
    if (!demand.counts) return steps;
    const rowCounts = await this.countRows(steps);
    return diffSchema(this.ctx.compiled.mappings, live, { ...diffOptions, rowCounts });
  }

  /** COUNT(*) of each existing table a step changes: a full scan, which is why it is opt-in. */
  private async countRows(steps: readonly CassandraPlanStep[]): Promise<Map<string, number>> {
    const tables = [...new Set(steps.filter((s) => s.action !== 'create-table').map((s) => s.collection))];
    const counts = new Map<string, number>();
    for (const table of tables) {
      const result = await this.ctx.executor.execute(
        `SELECT COUNT(*) FROM ${qualified(this.ctx.keyspace, table)}`,
        [],
        { store: STORE },
        'counting rows',
      );
      counts.set(table, Number(String(result.rows[0]?.['count'] ?? 0)));
    }
    return counts;
  }
}
