import type { ExplainEntry } from '../../explain/entry';
import type { Model } from '../../model/types';
import type { StoreExplainer } from '../contract';
import { compileModel } from './compile';
import { explainMapping } from './explain-entry';

/** Driver-free options of the Redis explainer (explain(model, { redis: { … } })). */
export interface RedisExplainOptions {
  /** Explain as for `new RedisStore({ client, prefix })`: the key prefix shown in the key layout. */
  readonly prefix?: string;
}

export const redisExplainer: StoreExplainer<RedisExplainOptions> = {
  store: 'redis',
  explain(model: Model, options: RedisExplainOptions = {}): ExplainEntry[] {
    const prefix = options.prefix ?? '';
    return compileModel(model).mappings.map((m) => explainMapping(m, prefix));
  },
};
