import type { PlanStep } from '../../core/plan';
import type { KeyspaceMapping } from './compile';
import { call, type RedisClientLike } from './gateway';
import { escapePart } from './keys';
import { SAY } from './semantics';

/**
 * Redis has no schema and no default TTL: lifespan sends EX <default> with every write. What
 * plan() tracks is the default each collection's writes were last set up with, recorded in one
 * hash under the prefix (`<prefix>{lifespan}:default-ttl`, field = collection; the braces never
 * occur in an entity's key, whose parts are escaped). A change is a step that says what it does:
 * new writes only.
 */
export type RedisStepPayload = {
  readonly op: 'set-default-ttl';
  readonly collection: string;
  /** The recorded default: seconds, 'none', or 'unrecorded' (no plan applied yet). */
  readonly from: number | 'none' | 'unrecorded';
  readonly to: number | 'none';
};

export type RedisStep = PlanStep<RedisStepPayload>;

/** The recorded defaults: one hash, a field per collection. */
export function recordKey(prefix: string): string {
  return `${prefix}{lifespan}:default-ttl`;
}

export function recordField(collection: string): string {
  return escapePart(collection);
}

/** The recorded defaults of the model's collections (one HMGET). */
export async function inspectDefaults(
  client: RedisClientLike,
  prefix: string,
  mappings: readonly KeyspaceMapping[],
): Promise<Array<RedisStepPayload['from']>> {
  if (mappings.length === 0) return [];
  const fields = mappings.map((m) => recordField(m.collection));
  const texts = await call<Array<string | null>>(client, ['HMGET', recordKey(prefix), ...fields], {
    operation: 'reading the recorded default TTLs',
  });
  return texts.map((t) => (t === null ? 'unrecorded' : t === 'none' ? 'none' : Number(t)));
}

/** The steps that bring the recorded defaults to the model's (pure: no driver). */
export function planSteps(
  prefix: string,
  mappings: readonly KeyspaceMapping[],
  recorded: ReadonlyArray<RedisStepPayload['from']>,
): RedisStep[] {
  return mappings.flatMap((mapping, i) => {
    const from = recorded[i] ?? 'unrecorded';
    const to = mapping.defaultSeconds ?? 'none';
    if (from === to) return [];
    const payload: RedisStepPayload = { op: 'set-default-ttl', collection: mapping.collection, from, to };
    const shown = (v: number | 'none') => (v === 'none' ? 'no default TTL' : `EX ${v}`);
    return [
      {
        entity: mapping.entity.name,
        collection: mapping.collection,
        action: 'set-default-ttl',
        class: from === 'unrecorded' ? 'additive' : 'in-place',
        summary:
          from === 'unrecorded'
            ? `writes to '${mapping.collection}' send ${shown(to)} (recorded as the collection's default)`
            : `writes to '${mapping.collection}' change from ${shown(from)} to ${shown(to)}`,
        command: renderSetDefault(prefix, payload),
        ttl: { from: typeof from === 'number' ? from : null, to: typeof to === 'number' ? to : null },
        effect: {
          kind: 'new-writes-only',
          text: `${SAY.newWritesOnly}.`,
          verified: true,
          stampedAtWrite: true,
          perDocument: true,
        },
        payload,
      },
    ];
  });
}

export function renderSetDefault(prefix: string, payload: RedisStepPayload): string {
  return `HSET ${recordKey(prefix)} ${recordField(payload.collection)} ${String(payload.to)}`;
}
