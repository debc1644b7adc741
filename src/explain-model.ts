import { ExplainReport } from './explain/report';
import type { Model } from './model/types';
import { EXPLAINERS, STORE_NAMES, type ExplainStoreOptions, type StoreName } from './providers/registry';
import { ProblemList } from './errors';
import { assertModel } from './runtime/arguments';
import type { ExplainEntry } from './explain/entry';

export interface ExplainOptions extends ExplainStoreOptions {
  /** Stores to explain for (default: all). */
  readonly stores?: readonly StoreName[];
}

/**
 * Explains, without any connection, what each store will natively do with the model's TTLs.
 * Throws one ModelError listing every problem of every store.
 */
export function explain(model: Model, options: ExplainOptions = {}): ExplainReport {
  assertModel(model, 'explain()');
  const stores = options.stores ?? STORE_NAMES;
  const problems = new ProblemList();
  const entries: ExplainEntry[] = [];
  for (const store of stores) {
    const explainer = EXPLAINERS[store] as (typeof EXPLAINERS)[StoreName] | undefined;
    if (!explainer) {
      problems.add({
        code: 'EXPLAIN_UNKNOWN_STORE',
        store: String(store),
        message: `'${String(store)}' is not a store`,
        hint: `use ${STORE_NAMES.join(', ')}`,
      });
      continue;
    }
    const storeOptions = options[store] as never;
    const result = problems.collect({ store }, () => explainer.explain(model, storeOptions));
    if (result) entries.push(...result);
  }
  problems.throwIfAny();
  return new ExplainReport(entries);
}
