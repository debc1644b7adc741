import type { Client, types } from 'cassandra-driver';
import { StoreError, TtlError, type ErrorPlace } from '../../errors';
import { driverConsistency, readBeforeWrite, type CassandraConsistency } from './consistency';
import { OVERFLOW_REJECT_PATTERN, STORE } from './semantics';

/** The part of a cassandra-driver Client lifespan uses. */
export type CqlClient = Pick<Client, 'execute' | 'batch'>;

/** Metadata.checkSchemaAgreement() exists in driver 4.x but is missing from its type declarations. */
interface SchemaAgreement {
  readonly metadata?: { readonly checkSchemaAgreement?: () => Promise<boolean> };
}

export type Row = types.Row;
export type ResultSet = types.ResultSet;
export type Params = unknown[];

/** The options of a statement at the store's levels: one object per kind, built once (the driver only reads them). */
type StatementOptions = Readonly<{ prepare: true; consistency?: number; serialConsistency?: number }>;

const PAGE_SIZE = 1000;
const READ = /^\s*SELECT\b/i;
const AGREEMENT_TIMEOUT_MS = 30_000;
const AGREEMENT_POLL_MS = 200;

/**
 * Runs statements prepared with bound values and turns driver failures into the error family:
 * a TTL the node rejects as past its expiration ceiling becomes a TtlError, anything else a StoreError.
 *
 * Every data statement passes through here, so this is where the store's consistency levels are
 * applied: a SELECT at the read level, anything else (INSERT, UPDATE, DELETE, a batch) at the write
 * level, and the serial level on each of them (Cassandra uses it only for lightweight transactions).
 */
export class Executor {
  /**
   * What a statement is sent with at the store's levels, by kind, and a batch's: built once, as the
   * raw driver's users pass one object, instead of spreading a new one for every statement (a unit
   * of work of 50 inserts sends 50 key checks).
   */
  private readonly options: Readonly<Record<'read' | 'write', StatementOptions>>;
  private readonly batchOptions: Readonly<{ prepare: true; logged: true; consistency?: number }>;

  constructor(
    private readonly client: CqlClient,
    private readonly consistency: CassandraConsistency = {},
  ) {
    this.options = Object.freeze({
      read: Object.freeze({ prepare: true as const, ...driverConsistency(consistency, 'read') }),
      write: Object.freeze({ prepare: true as const, ...driverConsistency(consistency, 'write') }),
    });
    this.batchOptions = Object.freeze({ prepare: true, logged: true, ...driverConsistency(consistency, 'write') });
  }

  execute(query: string, params: Params, place: ErrorPlace, what: string): Promise<types.ResultSet> {
    return this.send(query, params, place, what, undefined);
  }

  /**
   * A SELECT whose answer decides a write that follows (the stored createdAt an upsert keeps, the
   * cells setTtl rewrites): at the stronger of the read and write levels, so a write at QUORUM is
   * not built on a read at ONE.
   */
  async readForWrite(query: string, params: Params, place: ErrorPlace, what: string): Promise<types.ResultSet> {
    return this.send(query, params, place, what, undefined, readBeforeWrite(this.consistency));
  }

  /**
   * A read of the node's own tables (system_schema, system_views): local to the coordinator, so
   * the store's levels do not apply (a SERIAL or EACH_QUORUM read of them would only fail).
   */
  async metadata(query: string, params: Params, what: string): Promise<types.ResultSet> {
    try {
      return await this.client.execute(query, params, { prepare: true });
    } catch (error) {
      throw wrap(error, { store: STORE }, what, query);
    }
  }

  /** Every row, page by page. */
  async all(query: string, params: Params, place: ErrorPlace, what: string, limit?: number): Promise<Row[]> {
    const rows: Row[] = [];
    let pageState: string | undefined;
    do {
      const result = await this.send(query, params, place, what, paging(PAGE_SIZE, pageState));
      rows.push(...result.rows);
      pageState = result.pageState ?? undefined;
    } while (pageState && (limit === undefined || rows.length < limit));
    return limit === undefined ? rows : rows.slice(0, limit);
  }

  // findPage / deleteMany (issue 26)
  /**
   * A SELECT that checks this store's own writes (deleteMany's count): at the write level, so it
   * reaches the replicas the delete was acknowledged by (ANY, a write-only level, reads at ONE).
   */
  async checkWrite(query: string, params: Params, place: ErrorPlace, what: string): Promise<types.ResultSet> {
    const write = this.consistency.write === 'ANY' ? { ...this.consistency, write: 'ONE' as const } : this.consistency;
    try {
      return await this.client.execute(query, params, { prepare: true, ...driverConsistency(write, 'write') });
    } catch (error) {
      throw wrap(error, place, what, query);
    }
  }

  /** One page of a paged query: at most `fetchSize` rows, resumed from the driver's paging state. */
  async page(
    query: string,
    params: Params,
    place: ErrorPlace,
    what: string,
    fetchSize: number,
    pageState: string | undefined,
  ): Promise<types.ResultSet> {
    return this.send(query, params, place, what, paging(fetchSize, pageState));
  }

  /** A logged batch of `statements`, each handed to the driver as it is (it only reads them). */
  async batch(
    statements: readonly { readonly query: string; readonly params: Params }[],
    place: ErrorPlace,
    what: string,
  ): Promise<types.ResultSet> {
    try {
      return await this.client.batch(statements as { query: string; params: Params }[], this.batchOptions);
    } catch (error) {
      throw wrap(error, place, what, statements.map((s) => s.query).join('; '));
    }
  }

  /**
   * The one way a single data statement reaches the client, so none can go without the levels:
   * a SELECT at the read level (or `levels` when given), anything else at the write level.
   */
  private async send(
    query: string,
    params: Params,
    place: ErrorPlace,
    what: string,
    extra: { fetchSize?: number; pageState?: string } | undefined,
    levels: CassandraConsistency = this.consistency,
  ): Promise<types.ResultSet> {
    const kind = READ.test(query) ? 'read' : 'write';
    const options =
      extra === undefined && levels === this.consistency
        ? this.options[kind]
        : { prepare: true, ...extra, ...driverConsistency(levels, kind) };
    try {
      return await this.client.execute(query, params, options);
    } catch (error) {
      throw wrap(error, place, what, query);
    }
  }

  /** A schema statement, then a wait until every live node agrees on the new schema version. */
  async ddl(query: string, place: ErrorPlace): Promise<void> {
    let result: types.ResultSet;
    try {
      result = await this.client.execute(query);
    } catch (error) {
      throw wrap(error, place, 'schema change', query);
    }
    // The driver already waits up to protocolOptions.maxSchemaAgreementWaitSeconds and reports the outcome.
    if ((result.info as { isSchemaInAgreement?: boolean }).isSchemaInAgreement === false) {
      await this.awaitSchemaAgreement(place, query);
    }
  }

  async awaitSchemaAgreement(place: ErrorPlace, query: string): Promise<void> {
    const deadline = Date.now() + AGREEMENT_TIMEOUT_MS;
    const check = (this.client as SchemaAgreement).metadata?.checkSchemaAgreement;
    if (!check) return;
    while (Date.now() < deadline) {
      if (await check.call((this.client as SchemaAgreement).metadata)) return;
      await new Promise((resolve) => setTimeout(resolve, AGREEMENT_POLL_MS));
    }
    throw new StoreError(
      'CASSANDRA_NO_SCHEMA_AGREEMENT',
      `the nodes did not agree on the schema within ${AGREEMENT_TIMEOUT_MS / 1000}s after: ${query}`,
      { ...place, store: STORE, hint: 'check that every node is up (nodetool describecluster), then run it again' },
    );
  }
}

function paging(fetchSize: number, pageState: string | undefined): { fetchSize: number; pageState?: string } {
  return pageState === undefined ? { fetchSize } : { fetchSize, pageState };
}

function wrap(error: unknown, place: ErrorPlace, what: string, query: string): Error {
  if (error instanceof StoreError || error instanceof TtlError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (OVERFLOW_REJECT_PATTERN.test(message)) {
    return new TtlError('CASSANDRA_TTL_PAST_CEILING', null, `the node rejected the TTL: ${message}`, {
      ...place,
      store: STORE,
      cause: error,
      hint: "use a shorter TTL; lifespan's own check uses this machine's clock and expirationCeiling",
    });
  }
  return new StoreError('STORE_OPERATION_FAILED', `${what} failed: ${message}`, {
    ...place,
    store: STORE,
    cause: error,
    hint: `statement: ${query}`,
  });
}
