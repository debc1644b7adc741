import { LifespanError } from '../../errors';
import type { StoreExplainer } from '../contract';

// PLACEHOLDER until the relational provider lands: replaced by the provider's real explainer.
export const relationalExplainer: StoreExplainer<Record<string, never>> = {
  store: 'relational',
  explain() {
    throw new LifespanError('NOT_IMPLEMENTED', 'the relational explainer is not written yet');
  },
};
