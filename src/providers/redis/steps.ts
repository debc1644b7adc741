import { refuse, type StepRules } from '../../core/plan-gate';
import { shorterTtl } from '../../core/plan-consent';
import { call, type RedisClientLike } from './gateway';
import { recordField, recordKey, renderSetDefault, type RedisStepPayload } from './plan';
import { STORE } from './semantics';

/** What apply() runs with: the caller's client and the prefix. */
export interface RedisRun {
  readonly client: RedisClientLike;
  readonly prefix: string;
}

const isSeconds = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0;

/** The plan gate's rules for Redis plans (one step kind); the command text names the prefix. */
export function redisSteps(prefix: string): StepRules<RedisStepPayload, 'op', RedisRun> {
  return {
    store: STORE,
    discriminant: 'op',
    legacyDiscriminant: 'kind',
    conflictHint: 'Redis plans have no conflicts: re-run plan()',
    expiresSooner: shorterTtl,
    table: {
      'set-default-ttl': {
        parse(p) {
          const { collection, from, to } = p;
          if (typeof collection !== 'string') return refuse('names no collection');
          if (!(isSeconds(to) || to === 'none')) return refuse(`sets ${JSON.stringify(to)}, not seconds or 'none'`);
          if (!(isSeconds(from) || from === 'none' || from === 'unrecorded')) return refuse('has no recorded default');
          return { op: 'set-default-ttl', collection, from, to };
        },
        blocks: () => false,
        destroys: () => false,
        // Stored keys keep the expiry their write set: a new default reaches new writes only.
        expiresStored: () => false,
        // Each key keeps its own absolute expiry and Redis never returns an expired key.
        unexpiresStored: () => false,
        async apply(payload, _step, run) {
          const written = await call<number>(
            run.client,
            ['HSET', recordKey(run.prefix), recordField(payload.collection), String(payload.to)],
            { operation: `recording the default TTL of '${payload.collection}'` },
          );
          // HSET answers 0 when the field existed: it was overwritten, which still changed it unless equal.
          return written === 1 || payload.from !== payload.to;
        },
        render: (payload) => renderSetDefault(prefix, payload),
        explain: 'records the default TTL every later write sends as EX (stored keys keep their expiry)',
      },
    },
  };
}
