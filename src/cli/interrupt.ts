/** The exit code of a run stopped by SIGINT / SIGTERM (128 + SIGINT's number, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/** Thrown from a purge's progress callback once a signal came: the batch that just ended is the last. */
export class Interrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`interrupted by ${signal}`);
    this.name = 'Interrupted';
  }
}

/**
 * Runs `work` with SIGINT and SIGTERM turned into a flag that `stopIfAsked` checks between
 * batches: the running batch ends (its statement is atomic), no new one starts. A second signal
 * exits at once, as the default action would.
 */
export async function untilInterrupted<T>(work: (stopIfAsked: () => void) => Promise<T>): Promise<T> {
  let signal: NodeJS.Signals | undefined;
  const onSignal = (received: NodeJS.Signals) => {
    if (signal !== undefined) process.exit(EXIT_INTERRUPTED);
    signal = received;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(() => {
      if (signal !== undefined) throw new Interrupted(signal);
    });
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
