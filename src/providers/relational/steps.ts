import { isDestructiveStep, refuse, type PayloadOfKind, type StepHandler, type StepRules } from '../../core/plan-gate';
import { shorterTtl } from '../../core/plan-consent';
import { destroysData, unlistedStatement } from '../../core/statement-shapes';
import { isAlreadyThere } from './drivers/driver-errors';
import { RELATIONAL_STORE } from './options';
import type { RelationalStep, StepOp, StepPayload } from './step-payload';
import type { SchemaRunner } from './drivers/schema-runner';
import { STEP_SQL_SHAPES } from './schema/step-sql';

interface DdlKind {
  /** It creates something: a repeated or concurrent run may find it already there (counts as done). */
  readonly creates: boolean;
  /** It drops something (only with allowDestructive). */
  readonly drops: boolean;
  /** Emulation turned off: rows due but not yet purged are no longer filtered (only with allowUnexpiry). */
  readonly unexpires?: boolean;
  readonly explain: string;
}

/** Every relational step is DDL statements run in order; what differs per op is told by `kind`. */
function ddlStep<K extends StepOp>(
  op: K,
  kind: DdlKind,
): StepHandler<PayloadOfKind<StepPayload, 'op', K>, SchemaRunner, undefined> {
  return {
    parse(payload) {
      const sql = payload['sql'];
      if (
        !Array.isArray(sql) ||
        !sql.every((statement: unknown) => typeof statement === 'string') ||
        typeof payload['blocking'] !== 'boolean'
      ) {
        return refuse(`was not made by the relational provider (no DDL for '${op}')`);
      }
      const unlisted = unlistedStatement(sql as string[], STEP_SQL_SHAPES[op], `'${op}'`);
      return unlisted === null ? (payload as unknown as PayloadOfKind<StepPayload, 'op', K>) : refuse(unlisted);
    },
    // Decided from the payload, not the public copy of the flag.
    blocks: (payload) => payload.blocking,
    // By what the step runs, never by its (mutable) class alone.
    destroys: (payload) => kind.drops || destroysData(payload.sql, Object.values(STEP_SQL_SHAPES).flat()),
    // Emulated expiry is stamped at write: no DDL step moves a stored row's expires_at.
    expiresStored: () => false,
    unexpiresStored: () => kind.unexpires === true,
    async apply(payload, _step, runner) {
      if (payload.sql.length === 0) return false;
      for (const sql of payload.sql) {
        try {
          await runner.exec(sql);
        } catch (error) {
          if (!(kind.creates && isAlreadyThere(error))) throw error;
        }
      }
      return true;
    },
    render: (payload) => (payload.sql.length > 0 ? payload.sql.join(';\n') : '-- nothing is run'),
    explain: kind.explain,
  };
}

const creating = (explain: string): DdlKind => ({ creates: true, drops: false, explain });
const changing = (explain: string): DdlKind => ({ creates: false, drops: false, explain });
const conflict = (explain: string): DdlKind => ({ creates: false, drops: false, explain: `${explain} (never run)` });

export const RELATIONAL_STEPS: StepRules<StepPayload, 'op', SchemaRunner> = {
  store: RELATIONAL_STORE,
  discriminant: 'op',
  expiresSooner: shorterTtl,
  conflictHint: 'change the tables yourself (or the model), then plan again',
  table: {
    'create-table': ddlStep(
      'create-table',
      creating('CREATE TABLE, with expires_at, its index and the TTL record when emulated'),
    ),
    'add-column': ddlStep('add-column', creating('ALTER TABLE … ADD a nullable column')),
    'add-expiry-column': ddlStep('add-expiry-column', creating('ALTER TABLE … ADD expires_at and record the TTL')),
    'create-expiry-index': ddlStep('create-expiry-index', creating('CREATE INDEX on expires_at')),
    'record-ttl': ddlStep('record-ttl', creating("record the table's TTL in lifespan_ttl")),
    'set-ttl': ddlStep('set-ttl', changing("change the table's recorded TTL in lifespan_ttl")),
    'drop-expiry-column': ddlStep('drop-expiry-column', {
      creates: false,
      drops: true,
      unexpires: true,
      explain: 'DROP expires_at and its index (destructive)',
    }),
    'keep-expiry-column': ddlStep('keep-expiry-column', {
      ...conflict('a leftover expires_at, kept: its due rows are read again'),
      unexpires: true,
    }),
    'primary-key': ddlStep('primary-key', conflict('a primary key lifespan does not rebuild')),
    'column-type': ddlStep('column-type', conflict('a column type lifespan does not change')),
    'column-collation': ddlStep('column-collation', conflict('a column collation lifespan does not change')),
    'column-nullability': ddlStep('column-nullability', conflict('a NOT NULL column the model allows null in')),
  },
};

/** Whether the step can lose data (the gate's destructive rule, for ensureCollections' filter). */
export function isDestructive(step: RelationalStep): boolean {
  return isDestructiveStep(RELATIONAL_STEPS, step);
}
