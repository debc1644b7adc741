import type { Paint } from './colour';
import type { SecretMasker } from './mask';

/** Where the CLI writes; tests pass their own to capture output. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Asks a yes/no question on a terminal; absent when there is no terminal. */
  confirm?(question: string): Promise<boolean>;
  /** True when stdin and stdout are a terminal (progress bars, prompts). */
  readonly isTty?: boolean;
  /** Knows the secrets of the run; every line written passes through it. */
  readonly masker?: SecretMasker;
  /** Colours text when colour is wanted (a terminal without NO_COLOR / --no-color); else returns it. */
  readonly paint?: Paint;
  /** As paint, for stderr, which may be a terminal when stdout is not (or the reverse). */
  readonly paintErr?: Paint;
}
