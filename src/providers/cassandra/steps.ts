import { refuse, type StepHandler, type StepRefusal, type StepRules } from '../../core/plan-gate';
import { shorterTtl } from '../../core/plan-consent';
import { destroysData, unlistedStatement } from '../../core/statement-shapes';
import type { PlanStep } from '../../core/plan';
import type { Executor } from './executor';
import type { CassandraStepPayload } from './step-payload';
import { STORE } from './semantics';
import { STEP_CQL_SHAPES } from './step-cql';

type Op = CassandraStepPayload['op'];
type PayloadOf<K extends Op> = Extract<CassandraStepPayload, { readonly op: K }>;

/** Whatever its op, a step whose statements drop is destructive (a relabelled step cannot smuggle one through). */
function dropsData(payload: CassandraStepPayload): boolean {
  return destroysData(payload.statements, Object.values(STEP_CQL_SHAPES).flat());
}

/** Every Cassandra step is a list of CQL schema statements, each followed by a wait for schema agreement. */
async function runStatements(executor: Executor, step: PlanStep<CassandraStepPayload>): Promise<void> {
  const place = { entity: step.entity ?? undefined, store: STORE };
  for (const statement of step.payload.statements) await executor.ddl(statement, place);
}

function parseStatements<K extends Op>(op: K) {
  return (payload: Readonly<Record<string, unknown>>): PayloadOf<K> | StepRefusal => {
    const statements = payload['statements'];
    if (!Array.isArray(statements) || !statements.every((s: unknown) => typeof s === 'string')) {
      return refuse(`was not made by the cassandra provider (no list of CQL statements for '${op}')`);
    }
    const unlisted = unlistedStatement(statements as string[], STEP_CQL_SHAPES[op], `'${op}'`);
    return unlisted === null ? (payload as unknown as PayloadOf<K>) : refuse(unlisted);
  };
}

function statementsStep<K extends Op>(
  op: K,
  explain: string,
  destructive: boolean,
): StepHandler<PayloadOf<K>, Executor, undefined> {
  return {
    parse: parseStatements(op),
    blocks: () => false,
    destroys: (payload) => destructive || dropsData(payload),
    // default_time_to_live is stamped at write: no schema statement changes when a stored cell expires.
    expiresStored: () => false,
    // Expiry is stamped per cell and an expired cell is never returned: nothing can be read again.
    unexpiresStored: () => false,
    async apply(_payload, step, executor) {
      await runStatements(executor, step);
      return true;
    },
    render: (payload) => payload.statements.join(';\n'),
    explain,
  };
}

export const CASSANDRA_STEPS: StepRules<CassandraStepPayload, 'op', Executor> = {
  store: STORE,
  discriminant: 'op',
  expiresSooner: shorterTtl,
  conflictHint:
    'nothing was applied; change the model back, migrate the data to a new table yourself, or plan({ allowDestructive: true }) to drop and recreate',
  table: {
    'create-table': statementsStep('create-table', 'CREATE TABLE IF NOT EXISTS', false),
    'add-column': statementsStep('add-column', 'ALTER TABLE … ADD a column', false),
    'set-default-ttl': statementsStep('set-default-ttl', 'ALTER TABLE … WITH default_time_to_live', false),
    'recreate-table': statementsStep('recreate-table', 'DROP TABLE and CREATE TABLE (destructive)', true),
    conflict: {
      parse: parseStatements('conflict'),
      blocks: () => true,
      destroys: dropsData,
      expiresStored: () => false,
      // Expiry is stamped per cell and an expired cell is never returned: nothing can be read again.
      unexpiresStored: () => false,
      // Never reached: the gate refuses a plan with a conflict before any step runs.
      apply: async () => false,
      render: (payload) =>
        `-- not run: needs a new table and a copy of the data (or plan({ allowDestructive: true }) to drop ${payload.keyspace}.${payload.table})`,
      explain: 'a change Cassandra cannot make in place (never run)',
    },
  },
};
