import { LifespanError } from '../../errors';
import type { KeyspaceMapping } from './compile';
import { STORE } from './semantics';
import { hashedPart, hashSlot } from './slots';

/** How many slots (and partitions of a slot) a refusal names. */
const SLOTS_NAMED = 3;

/** One key a unit of work would write, with the entity it belongs to. */
export interface SlotUse {
  readonly mapping: KeyspaceMapping;
  readonly key: string;
}

/** How an operation's slot reads to the caller: its partition, or its key when the entity has none. */
function partitionOf({ mapping, key }: SlotUse): string {
  if (mapping.tagMembers.length === 0)
    return `${mapping.entity.name} key '${key}' (no @PartitionKey: one slot per record)`;
  const members = mapping.tagMembers.map((f) => f.member).join(', ');
  return `${mapping.entity.name} partition ${members} = '${hashedPart(key)}'`;
}

/**
 * Refuses, before anything is sent, a unit of work whose keys span Redis Cluster hash slots: one
 * script can only touch one slot, and lifespan's unit of work is one script (atomic). The message
 * names the first slots' partitions and counts the rest.
 */
export function refuseSlotsSpread(uses: readonly SlotUse[]): void {
  const bySlot = new Map<number, Set<string>>();
  for (const use of uses) {
    const slot = hashSlot(use.key);
    bySlot.set(slot, (bySlot.get(slot) ?? new Set()).add(partitionOf(use)));
  }
  if (bySlot.size <= 1) return;
  // A few slots name the problem; a unit of 400 records of 400 slots listed in full would be a page.
  const listed = [...bySlot.entries()]
    .slice(0, SLOTS_NAMED)
    .map(([slot, parts]) => `slot ${slot}: ${named([...parts])}`);
  if (bySlot.size > SLOTS_NAMED) listed.push(`${bySlot.size - SLOTS_NAMED} more slots`);
  throw new LifespanError(
    'REDIS_CROSS_SLOT',
    `the unit of work touches ${bySlot.size} Redis Cluster hash slots (${listed.join(' | ')}); ` +
      'one script runs on one slot only, so nothing was sent',
    {
      store: STORE,
      hint:
        'put the operations of one unit of work in one partition (the same @PartitionKey values share a slot, ' +
        'across entities too), or commit one unit of work per partition',
    },
  );
}

/** The first partitions of a slot, and how many more it holds. */
function named(parts: readonly string[]): string {
  const shown = parts.slice(0, SLOTS_NAMED).join('; ');
  return parts.length > SLOTS_NAMED ? `${shown}; ${parts.length - SLOTS_NAMED} more` : shown;
}
