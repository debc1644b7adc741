import type { PlanStep } from '../../core/plan';
import type { ColumnSpec } from './schema';

// What plan.ts decides and steps.ts runs, apart from both so neither imports the other for it.

/** What apply() runs for a step: schema statements in order, plus what to re-check after a race. */
export type CassandraStepPayload =
  | { readonly op: 'create-table'; readonly statements: readonly string[]; readonly table: string }
  | {
      readonly op: 'add-column';
      readonly statements: readonly string[];
      readonly table: string;
      readonly column: ColumnSpec;
    }
  | { readonly op: 'set-default-ttl'; readonly statements: readonly string[]; readonly table: string }
  | { readonly op: 'recreate-table'; readonly statements: readonly string[]; readonly table: string }
  | {
      readonly op: 'conflict';
      readonly statements: readonly string[];
      readonly table: string;
      /** Named in the command text: the table to drop with plan({ allowDestructive: true }). */
      readonly keyspace: string;
    };

export type CassandraPlanStep = PlanStep<CassandraStepPayload>;
