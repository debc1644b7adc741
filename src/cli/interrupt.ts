/** The exit code of a run stopped by SIGINT / SIGTERM (128 + SIGINT's number, as shells report it). */
export const EXIT_INTERRUPTED = 130;

/**
 * Runs `work` with SIGINT and SIGTERM turned into an abort of the signal it is given: a purge
 * checks it after every batch, so the running batch ends (its statement is atomic) and no new one
 * starts. A second signal exits at once, as the default action would, after `onSecond` reported
 * what was done so far.
 */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>, onSecond: () => void): Promise<T> {
  const controller = new AbortController();
  const onSignal = (received: NodeJS.Signals) => {
    if (controller.signal.aborted) {
      onSecond();
      process.exit(EXIT_INTERRUPTED);
    }
    controller.abort(received);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}
