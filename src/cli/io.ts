/** Where the CLI writes; tests pass their own to capture output. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Asks a yes/no question on a terminal; absent when there is no terminal. */
  confirm?(question: string): Promise<boolean>;
  /** True when stdout is a terminal (progress bars, prompts). */
  readonly isTty?: boolean;
}
