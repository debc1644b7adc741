/**
 * jest globalTeardown: runs after all tests, passed or failed. Stops the Cassandra node that
 * globalSetup started (never one that was already running) and drops this run's databases.
 */
import { HARNESS_STATE_KEY, type HarnessState, releaseHarness } from './harness-state';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as Record<string, unknown>)[HARNESS_STATE_KEY] as HarnessState | undefined;
  if (!state) return;
  const problems = await releaseHarness(state);
  for (const problem of problems) process.stdout.write(`[lifespan test bed] teardown: ${problem}\n`);
}
