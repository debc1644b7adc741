import type { Client } from 'cassandra-driver';
import { LifespanError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { Model } from '../../model/types';
import { driverOption } from '../../runtime/store-options';
import type { Store, StoreSession } from '../contract';
import { compileModel } from './compile';
import { checkConsistency, checkCounterConsistency, clientLevels, type CassandraConsistency } from './consistency';
import { SessionContext } from './context';
import { checkName } from './cql';
import { Executor } from './executor';
import { CEILING_2038, CEILING_2106, STORE } from './semantics';
import { CassandraSession } from './session';

export interface CassandraStoreOptions {
  /** A cassandra-driver Client you built (and shut down); lifespan never closes it. */
  readonly client: Client;
  /** An existing keyspace (case-sensitive, as stored in system_schema). */
  readonly keyspace: string;
  /**
   * Latest expiry instant the node accepts. 'detect' (default): read storage_compatibility_mode from
   * system_views.settings when opening — NONE means 2106-02-07T06:28:13Z; anything else, a node
   * without the setting, or one that shows it as null (5.0.9 does) means 2038-01-19T03:14:06Z, the
   * safe choice. A Date to set it; null to skip the check.
   */
  readonly expirationCeiling?: Date | null | 'detect';
  /** The clock TTLs are checked against and @CreatedAt/@UpdatedAt are stamped with (default: the current time). */
  readonly now?: () => Date;
  /**
   * Consistency levels of every statement lifespan sends: `read` for SELECTs, `write` for INSERT,
   * UPDATE, DELETE and batches, `serial` for the Paxos phase of lightweight transactions
   * (insert's IF NOT EXISTS). Each omitted level is the client's own default (LOCAL_ONE in
   * cassandra-driver 4.x). `read` takes no SERIAL level (it also runs range scans). E.g. `{ read: 'LOCAL_QUORUM', write: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' }`.
   */
  readonly consistency?: CassandraConsistency;
}

const KNOWN_OPTIONS = ['client', 'keyspace', 'expirationCeiling', 'now', 'consistency'];

/** `new CassandraStore({ client, keyspace })`: Cassandra tables with default_time_to_live and USING TTL. */
export class CassandraStore implements Store {
  readonly name = 'cassandra' as const;
  private readonly client: Client;
  private readonly keyspace: string;
  private readonly consistency: CassandraConsistency;

  constructor(private readonly options: CassandraStoreOptions) {
    refuseUnknownOptions(options);
    this.client = driverOption<Client>(
      options,
      'client',
      (client) => typeof client.execute === 'function' && typeof client.batch === 'function',
      {
        store: STORE,
        code: 'STORE_BAD_OPTION',
        message: 'options.client is not a cassandra-driver Client',
        hint: "pass new Client({ contactPoints, localDataCenter }) from 'cassandra-driver'",
      },
    );
    this.keyspace = checkName(options.keyspace, 'keyspace');
    this.consistency = checkConsistency(options.consistency);
    checkCeilingOption(options.expirationCeiling);
    if (options.now !== undefined && typeof options.now !== 'function') {
      throw badOption(
        `now must be a function returning a Date, got ${showValue(options.now)}`,
        'now: () => new Date()',
      );
    }
  }

  describe(): string {
    const points = (this.client as { options?: { contactPoints?: unknown } }).options?.contactPoints;
    const hosts = Array.isArray(points) ? points.map(String).join(',') : 'client';
    return `cassandra://${hosts}/${this.keyspace}`;
  }

  async open(model: Model): Promise<StoreSession> {
    const executor = new Executor(this.client, this.consistency);
    const now = this.options.now ?? (() => new Date());
    const ceiling = await this.ceiling(executor);
    const compiled = compileModel(model, { now: now(), ceiling });
    checkCounterConsistency(
      this.consistency,
      compiled.mappings.filter((m) => m.isCounter).map((m) => m.table.name),
    );
    const ctx = new SessionContext(executor, this.keyspace, compiled, now, ceiling);
    const session = new CassandraSession(ctx, this.describe(), this.consistency, clientLevels(this.client));
    await session.readClusterSettings();
    return session;
  }

  private async ceiling(executor: Executor): Promise<Date | null> {
    const option = this.options.expirationCeiling;
    if (option !== undefined && option !== 'detect') return option;
    try {
      const result = await executor.metadata(
        "SELECT value FROM system_views.settings WHERE name = 'storage_compatibility_mode'",
        [],
        'reading storage_compatibility_mode',
      );
      const mode = result.rows[0]?.['value'];
      return typeof mode === 'string' && mode.toUpperCase() === 'NONE' ? CEILING_2106 : CEILING_2038;
    } catch {
      // Nodes before 4.0 have no system_views; they all have the 2038 ceiling.
      return CEILING_2038;
    }
  }
}

/** An option this store does not know is a mistake (a misspelt consistency, say), never ignored. */
function refuseUnknownOptions(options: unknown): void {
  if (options === null || typeof options !== 'object') return;
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.includes(key));
  if (unknown.length === 0) return;
  throw badOption(
    `unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}`,
    `new CassandraStore({ ${KNOWN_OPTIONS.join(', ')} })`,
  );
}

function checkCeilingOption(value: unknown): void {
  if (value === undefined || value === null || value === 'detect') return;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return;
  throw badOption(
    `expirationCeiling must be 'detect', null or a valid Date, got ${showValue(value)}`,
    "expirationCeiling: 'detect' (read it from the node) or new Date('2038-01-19T03:14:06Z')",
  );
}

function badOption(message: string, hint: string): LifespanError {
  return new LifespanError('STORE_BAD_OPTION', message, { store: STORE, hint });
}
