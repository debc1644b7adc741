import type { Io } from '../io';
import type { SecretMasker } from '../mask';
import { maskingIo } from '../masking-io';
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
  const masked = maskingIo(io);
  const masker = masked.masker;
  try {
    const targets = await resolveTargets(options, masked);
    let result: T;
    try {
      result = await run(targets, masked);
    } catch (error) {
      await targets.dispose().catch((disposeError: unknown) => masked.err(`${String(disposeError)}\n`));
      throw error;
    }
    await targets.dispose();
    return result;
  } catch (error) {
    maskError(error, masker);
    throw error;
  }
}

/** The message and stack of an error, and of its causes, with every secret masked. */
export function maskError(error: unknown, masker: SecretMasker): void {
  for (let e = error, depth = 0; e instanceof Error && depth < 6; e = e.cause, depth += 1) {
    e.message = masker.mask(e.message);
    if (e.stack) e.stack = masker.mask(e.stack);
  }
}
