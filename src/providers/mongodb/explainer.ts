import { LifespanError } from '../../errors';
import type { StoreExplainer } from '../contract';

// PLACEHOLDER until the mongodb provider lands: replaced by the provider's real explainer.
export const mongodbExplainer: StoreExplainer<Record<string, never>> = {
  store: 'mongodb',
  explain() {
    throw new LifespanError('NOT_IMPLEMENTED', 'the mongodb explainer is not written yet');
  },
};
