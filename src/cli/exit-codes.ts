import { ErrorCodes } from '../error-codes';
import { LifespanError, ModelError, StoreError } from '../errors';
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
      --allow-retroactive, --allow-destructive) is missing
  3   the model is invalid
  4   the store: unreachable, authentication failed, database/keyspace/container missing,
      driver not installed, or the store refused the plan
  5   your code threw: a models or config module, a store factory or its dispose()
  70  internal error in lifespan (please report it)`;

/** Codes of mistakes in what the user typed, whichever part of lifespan noticed them. */
const USAGE_CODES = new Set<string>([
  ErrorCodes.BAD_ARGUMENT,
  'COSMOS_SELF_SIGNED_REMOTE',
  'APPLY_NEEDS_CONSENT',
  'APPLY_NEEDS_RETROACTIVE',
  'APPLY_DESTRUCTIVE',
  'PLAN_DESTRUCTIVE_NOT_ALLOWED',
  'PURGE_NOT_EMULATED',
  ErrorCodes.PLAN_RETROACTIVE_NOT_ALLOWED,
]);

/** Codes of failures in the user's own modules and factories. */
const USER_CODE_CODES = new Set<string>(['CLI_LOAD_FAILED', 'CLI_FACTORY_FAILED', 'CLI_DISPOSE_FAILED']);

export function exitCodeFor(error: unknown): number {
  if (error instanceof ModelError || isModelError(error)) return EXIT_MODEL;
  if (!(error instanceof LifespanError)) return EXIT_INTERNAL;
  if (USER_CODE_CODES.has(error.code)) return EXIT_USER_CODE;
  if (USAGE_CODES.has(error.code) || error.code.startsWith('CLI_') || /_URL(_|$)/.test(error.code)) return EXIT_USAGE;
  return error instanceof StoreError || STORE_CODES.has(error.code) ? EXIT_STORE : EXIT_MODEL;
}

/** Refusals by the store that are not StoreErrors (the CLI's own checks of a plan). */
const STORE_CODES = new Set<string>(['APPLY_CONFLICT', ErrorCodes.PLAN_CONFLICT, ErrorCodes.ENSURE_NEEDS_REVIEW]);
