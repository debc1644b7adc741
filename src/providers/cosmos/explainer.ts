import { LifespanError } from '../../errors';
import type { StoreExplainer } from '../contract';

// PLACEHOLDER until the cosmos provider lands: replaced by the provider's real explainer.
export const cosmosExplainer: StoreExplainer<Record<string, never>> = {
  store: 'cosmos',
  explain() {
    throw new LifespanError('NOT_IMPLEMENTED', 'the cosmos explainer is not written yet');
  },
};
