import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import { showValue } from '../../model/duration';
import type { Model } from '../../model/types';
import type { StoreExplainer } from '../contract';
import { compileSchema } from './compile';
import { RELATIONAL_DIALECTS, type RelationalDialect } from './families/dialects';
import { explainSchema } from './explain-entry';
import { checkTtlMode, RELATIONAL_STORE, type RelationalTtlMode } from './options';

export interface RelationalExplainOptions {
  /** What @TimeToLive does here (default 'ignore'). */
  readonly ttl?: RelationalTtlMode;
  /** Whose SQL the commands are written in (default 'sqlite', the embedded default). */
  readonly dialect?: RelationalDialect;
}

/** Driver-free: explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } }). */
export const relationalExplainer: StoreExplainer<RelationalExplainOptions> = {
  store: 'relational',
  explain(model: Model, options: RelationalExplainOptions = {}): ExplainEntry[] {
    const schema = compileSchema(model, checkDialect(options.dialect), checkTtlMode(options.ttl));
    return explainSchema(model, schema, false);
  },
};

function checkDialect(value: unknown): RelationalDialect {
  if (value === undefined) return 'sqlite';
  if (typeof value === 'string' && (RELATIONAL_DIALECTS as readonly string[]).includes(value)) {
    return value as RelationalDialect;
  }
  throw new LifespanError('STORE_BAD_OPTION', `dialect ${showValue(value)} is not a relational dialect`, {
    store: RELATIONAL_STORE,
    hint: `use one of ${RELATIONAL_DIALECTS.join(', ')}`,
  });
}
