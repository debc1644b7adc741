import type { Io } from '../io';
import { resolveTargets, type TargetOptions, type Targets } from '../targets';

/**
 * Runs a command against the resolved stores with every line it prints, and every error it
 * throws, passed through the secret masker; closes the connections whatever happens.
 */
export async function withTargets<T>(
  options: TargetOptions,
  io: Io,
  run: (targets: Targets, io: Io) => Promise<T>,
): Promise<T> {
  const targets = await resolveTargets(options);
  const masked: Io = { out: (t) => io.out(targets.masker.mask(t)), err: (t) => io.err(targets.masker.mask(t)) };
  try {
    return await run(targets, masked);
  } catch (error) {
    if (error instanceof Error) {
      error.message = targets.masker.mask(error.message);
      if (error.stack) error.stack = targets.masker.mask(error.stack);
    }
    throw error;
  } finally {
    await targets.dispose();
  }
}
