import { secondsOfHttpDate } from './item-expiry';

/** How long one Date header is trusted for an estimate before a fresh request is made. */
const SAMPLE_MAX_AGE_MS = 60_000;

/**
 * The service's clock as seen through the HTTP Date headers of its responses. A query must carry
 * "now" before it is sent, so queries use an estimate: the offset between the server and this
 * process measured at the latest response. A Date header has whole seconds, so the offset is
 * taken at the middle of that second: the estimate is within about a second of the server clock.
 */
export class ServerClock {
  private offsetMs: number | undefined;
  private sampledAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly clientNowMs: () => number = () => Date.now()) {}

  /** Records a response's Date header; returns its epoch seconds (undefined when absent). */
  observe(dateHeader: unknown): number | undefined {
    const seconds = secondsOfHttpDate(dateHeader);
    if (seconds === undefined) return undefined;
    const at = this.clientNowMs();
    this.offsetMs = seconds * 1000 + 500 - at;
    this.sampledAtMs = at;
    return seconds;
  }

  /** The server's epoch milliseconds now (within about a second), or undefined when no recent response told it. */
  estimateMs(): number | undefined {
    const at = this.clientNowMs();
    if (this.offsetMs === undefined || Math.abs(at - this.sampledAtMs) > SAMPLE_MAX_AGE_MS) return undefined;
    return at + this.offsetMs;
  }

  /** The server's epoch seconds now, or undefined when no recent response told it. */
  estimateSeconds(): number | undefined {
    const ms = this.estimateMs();
    return ms === undefined ? undefined : Math.floor(ms / 1000);
  }
}
