/** Shared by the expiry-instant contract tests: waiting until a record's instant has passed, as each store's test bed enforces it. */
import { MemoryDb } from '../mongodb/fake/memory-db';
import type { ContractStore, OpenedContract } from './stores';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The title of the "gone after its instant" case, and whether the store of the test bed shows it. */
export function observedExpiry(store: ContractStore, what: string): { title: string; runs: boolean } {
  const observed = store.can.expiryObservedBy;
  const how = observed === 'none' ? 'not observable on this test bed' : `by the ${observed}`;
  return { title: `the record is gone after ${what} (${how})`, runs: observed !== 'none' };
}

/**
 * Lets `at` pass where the store deletes or hides due records: sleeps past it (a server that
 * expires keys, relational reads that hide due rows), or moves the MongoDB fake's clock and runs
 * one TTL monitor pass (the fake's clock is the server's). False on a live MongoDB, whose monitor
 * runs every 60 s.
 */
export async function letInstantPass(
  store: ContractStore,
  raw: OpenedContract['raw'] | undefined,
  at: Date,
): Promise<boolean> {
  if (store.can.expiryObservedBy !== 'monitor') {
    await sleep(Math.max(0, at.getTime() - Date.now()) + 1200);
    return true;
  }
  const memory = raw?.mongo;
  if (!(memory instanceof MemoryDb)) return false;
  memory.advance(Math.ceil((at.getTime() - Date.now()) / 1000) + 1);
  memory.ttlMonitorPass();
  return true;
}
