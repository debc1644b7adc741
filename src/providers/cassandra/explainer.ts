import type { ExplainEntry } from '../../explain/entry';
import type { Model } from '../../model/types';
import type { StoreExplainer } from '../contract';
import { compileModel } from './compile';
import { explainMapping } from './explain-entry';
import { CEILING_2038 } from './semantics';

/** Driver-free options of the Cassandra explainer (explain(model, { cassandra: { … } })). */
export interface CassandraExplainOptions {
  /**
   * Latest expiry instant the node accepts. Default 2038-01-19T03:14:06Z (Cassandra 4.x, and 5.0 in
   * its default storage_compatibility_mode CASSANDRA_4); 2106-02-07T06:28:13Z for 5.0 with NONE;
   * null: no check.
   */
  readonly expirationCeiling?: Date | null;
  /** The instant TTLs are checked against (default: the current time). */
  readonly now?: () => Date;
  /** Keyspace to qualify the commands with (default: unqualified). */
  readonly keyspace?: string;
  /**
   * gc_grace_seconds to report for every table (default 864000, Cassandra's default); db.explain()
   * reports each live table's own value instead.
   */
  readonly gcGraceSeconds?: number;
}

export const cassandraExplainer: StoreExplainer<CassandraExplainOptions> = {
  store: 'cassandra',
  explain(model: Model, options: CassandraExplainOptions = {}): ExplainEntry[] {
    const clock = {
      now: (options.now ?? (() => new Date()))(),
      ceiling: options.expirationCeiling === undefined ? CEILING_2038 : options.expirationCeiling,
    };
    const compiled = compileModel(model, clock);
    const ctx = {
      clock,
      keyspace: options.keyspace ?? null,
      cluster: {
        consistency: null,
        settings: null,
        ...(options.gcGraceSeconds === undefined ? {} : { givenGcGrace: options.gcGraceSeconds }),
      },
    };
    return compiled.mappings.map((m) => explainMapping(m, ctx));
  },
};
