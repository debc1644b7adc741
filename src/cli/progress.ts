/**
 * Purge progress: on a terminal one line rewritten in place with the rate (and time left when the
 * total is known); elsewhere (logs, cron) one line every few seconds instead of one per batch.
 */
export interface ProgressOptions {
  readonly name: string;
  readonly isTty: boolean;
  readonly write: (text: string) => void;
  readonly total?: number | undefined;
  readonly everyMs?: number;
  readonly now?: () => number;
}

const CLEAR_TO_END = '\x1b[K';

export function purgeProgress(options: ProgressOptions): { update(done: number): void; finish(): void } {
  const now = options.now ?? Date.now;
  const started = now();
  const everyMs = options.everyMs ?? (options.isTty ? 200 : 5000);
  let last = started;
  let shown = false;
  const line = (done: number): string => {
    const seconds = Math.max((now() - started) / 1000, 0.001);
    const rate = done / seconds;
    const total = options.total;
    const of = total === undefined ? '' : ` of ${total}`;
    const left =
      total === undefined || rate === 0 ? '' : `, about ${Math.ceil(Math.max(total - done, 0) / rate)}s left`;
    return `${options.name}: purged ${done}${of} row(s) (${Math.round(rate)} rows/s${left})`;
  };
  return {
    update(done) {
      const t = now();
      if (t - last < everyMs) return;
      last = t;
      shown = true;
      // \x1b[K clears what a longer earlier line left to the right of this one.
      options.write(options.isTty ? `\r${line(done)}${CLEAR_TO_END}` : `${line(done)}\n`);
    },
    finish() {
      if (shown && options.isTty) options.write('\n');
    },
  };
}
