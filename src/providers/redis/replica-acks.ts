import { LifespanError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { ReplicaAcks } from './router';
import { STORE } from './semantics';

const DEFAULT_TIMEOUT_MS = 1000;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 1;

/** RedisStore's `waitForReplicas`: n, or { replicas: n, timeoutMs? } (n ≥ 1, timeoutMs ≥ 1); undefined: no WAIT. */
export function replicaAcksOption(value: unknown): ReplicaAcks | undefined {
  if (value === undefined) return undefined;
  if (isCount(value)) return { replicas: value, timeoutMs: DEFAULT_TIMEOUT_MS };
  if (typeof value === 'object' && value !== null) {
    const { replicas, timeoutMs = DEFAULT_TIMEOUT_MS, ...rest } = value as Record<string, unknown>;
    if (isCount(replicas) && isCount(timeoutMs) && Object.keys(rest).length === 0) return { replicas, timeoutMs };
  }
  throw new LifespanError(
    'STORE_BAD_OPTION',
    `waitForReplicas must be a number of replicas (1 or more) or { replicas, timeoutMs }, got ${showValue(value)}`,
    { store: STORE, hint: 'e.g. waitForReplicas: 1, or waitForReplicas: { replicas: 1, timeoutMs: 500 }' },
  );
}
