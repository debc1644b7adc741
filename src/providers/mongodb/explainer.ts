import type { ExplainEntry } from '../../explain/entry';
import type { Model } from '../../model/types';
import type { StoreExplainer } from '../contract';
import { compileModel } from './compile';
import { explainMapping } from './explain-entry';

/** Driver-free options of the MongoDB explainer (explain(model, { mongodb: { … } })). */
export interface MongoExplainOptions {
  /** Explain as for `new MongoStore({ db, hideExpired: true })`: expired documents filtered from reads. */
  readonly hideExpired?: boolean;
}

export const mongodbExplainer: StoreExplainer<MongoExplainOptions> = {
  store: 'mongodb',
  explain(model: Model, options: MongoExplainOptions = {}): ExplainEntry[] {
    const ctx = { hideExpired: options.hideExpired ?? false };
    return compileModel(model).mappings.map((m) => explainMapping(m, ctx));
  },
};
