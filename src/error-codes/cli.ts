import type { ErrorCodeSpec } from '../error-code-spec';

/** Codes of the command line. Each row's TSDoc is its meaning in docs/errors.md. */
export const CLI_CODES = {
  /** lifespan apply: no terminal to confirm and no --yes. */
  APPLY_NEEDS_CONSENT: { family: 'LifespanError', exit: 'usage' },
  /** The config file does not export { model, stores } or a store entry is malformed. */
  CLI_BAD_CONFIG: { family: 'LifespanError', exit: 'usage' },
  /** A store factory in the config returned something that is not a store. */
  CLI_BAD_FACTORY_RESULT: { family: 'LifespanError', exit: 'usage' },
  /** The snapshot file is not a lifespan snapshot of a version this CLI reads. */
  CLI_BAD_SNAPSHOT: { family: 'LifespanError', exit: 'usage' },
  /** purge --now later than the database clock would delete rows that are still live: needs --yes. */
  CLI_PURGE_LIVE_ROWS: { family: 'LifespanError', exit: 'usage' },
  /** Two CLI options that cannot be used together (e.g. diff --file with --base). */
  CLI_BAD_OPTIONS: { family: 'LifespanError', exit: 'usage' },
  /** diff: the snapshot was written for other stores or another relational TTL mode than asked for. */
  CLI_SNAPSHOT_MISMATCH: { family: 'LifespanError', exit: 'usage' },
  /** snapshot: the snapshot file could not be written (missing or unwritable folder). */
  CLI_SNAPSHOT_WRITE: { family: 'LifespanError', exit: 'usage' },
  /** A store's dispose() in the config threw. */
  CLI_DISPOSE_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** A store factory in the config threw. */
  CLI_FACTORY_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** A models or config file that does not exist. */
  CLI_FILE_NOT_FOUND: { family: 'LifespanError', exit: 'usage' },
  /** A git command run for --base failed. */
  CLI_GIT_FAILED: { family: 'LifespanError', exit: 'usage' },
  /** A models or config module threw while loading. */
  CLI_LOAD_FAILED: { family: 'LifespanError', exit: 'user-code' },
  /** The models file exports no built model. */
  CLI_NO_MODEL: { family: 'LifespanError', exit: 'usage' },
  /** A store module lacks the URL opener the CLI needs. */
  CLI_NO_OPENER: { family: 'LifespanError', exit: 'usage' },
  /** No snapshot file where one was named. */
  CLI_NO_SNAPSHOT: { family: 'LifespanError', exit: 'usage' },
  /** A command that needs a store, given none. */
  CLI_NO_STORE: { family: 'LifespanError', exit: 'usage' },
  /** Loading a .ts/.mts/.cts file without the typescript package installed. */
  CLI_TYPESCRIPT_MISSING: { family: 'LifespanError', exit: 'usage' },
  /** A store name that the config does not define. */
  CLI_UNKNOWN_STORE: { family: 'LifespanError', exit: 'usage' },
  /** A store URL whose scheme no store opens. */
  CLI_UNKNOWN_URL: { family: 'LifespanError', exit: 'usage' },
  /** A models or config file of an extension the CLI cannot load. */
  CLI_UNSUPPORTED_FILE: { family: 'LifespanError', exit: 'usage' },
  /** A command-line flag or argument that is wrong or missing. */
  CLI_USAGE: { family: 'LifespanError', exit: 'usage' },
  /** lifespan demo: the SQLite driver packages are not installed. */
  DEMO_DRIVER_MISSING: { family: 'LifespanError', exit: 'store' },
} as const satisfies Record<string, ErrorCodeSpec>;
