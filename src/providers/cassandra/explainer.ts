import { LifespanError } from '../../errors';
import type { StoreExplainer } from '../contract';

// PLACEHOLDER until the cassandra provider lands: replaced by the provider's real explainer.
export const cassandraExplainer: StoreExplainer<Record<string, never>> = {
  store: 'cassandra',
  explain() {
    throw new LifespanError('NOT_IMPLEMENTED', 'the cassandra explainer is not written yet');
  },
};
