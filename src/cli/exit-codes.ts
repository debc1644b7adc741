import { errorCodeSpec, type ExitFamily } from '../error-codes';
import { LifespanError, ModelError } from '../errors';
import { isModelError } from './load-module';

/**
 * Exit codes, documented in `lifespan --help` and docs/migrations.md. Each one tells a script a
 * different thing to do, so no two causes share one.
 */
export const EXIT_OK = 0;
/** `plan --check` found drift, or `diff --check` found a model change the snapshot does not have. */
export const EXIT_DRIFT = 1;
/** A usage mistake: flags, URLs, URL options, a missing file, a consent flag not given. */
export const EXIT_USAGE = 2;
/** The model is invalid (every problem is listed). */
export const EXIT_MODEL = 3;
/** The store could not be reached or refused the work (connection, authentication, conflict). */
export const EXIT_STORE = 4;
/** The user's own code threw: a models or config module, a store factory, a dispose(). */
export const EXIT_USER_CODE = 5;
/** Anything else: a defect in lifespan; please report it. */
export const EXIT_INTERNAL = 70;

export const EXIT_CODE_HELP = `Exit codes:
  0   success
  1   drift: plan --check found a store that differs from the model, or diff --check found a
      model change that the snapshot file does not have
  2   usage: a flag, URL, URL option or file is wrong, or a consent flag (--yes,
      --allow-retroactive, --allow-unexpiry, --allow-destructive) is missing
  3   the model is invalid
  4   the store: unreachable, authentication failed, database/keyspace/container missing,
      driver not installed, or the store refused the plan
  5   your code threw: a models or config module, a store factory or its dispose()
  70  internal error in lifespan (please report it)
  130 interrupted (Ctrl-C, SIGINT/SIGTERM): purge reports what it deleted before it stopped`;

const EXIT_OF_FAMILY: Readonly<Record<ExitFamily, number>> = {
  usage: EXIT_USAGE,
  model: EXIT_MODEL,
  store: EXIT_STORE,
  'user-code': EXIT_USER_CODE,
  internal: EXIT_INTERNAL,
};

/** The exit code of a failed run: the `exit` family of the error's code in ERROR_CODE_TABLE. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof ModelError || isModelError(error)) return EXIT_MODEL;
  if (!(error instanceof LifespanError)) return EXIT_INTERNAL;
  const spec = errorCodeSpec(error.code);
  return spec ? EXIT_OF_FAMILY[spec.exit] : EXIT_INTERNAL;
}
