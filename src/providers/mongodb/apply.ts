import { StoreError } from '../../errors';
import { showValue } from '../../model/duration';
import { shellCommand, ttlCommandOf, type Doc, type TtlCommand } from './commands';
import { serverCode, serverMessage, type MongoDbLike } from './gateway';
import { numeric } from './inspect';
import type { MongoPlanStep } from './step-payload';
import { ERROR_CODES, EXPIRE_AFTER_SECONDS, STORE } from './semantics';
import { lengthens } from './ttl-limits';

/** What the steps of one apply() or ensureCollections() run with. */
export interface MongoStepRun {
  readonly db: MongoDbLike;
  /**
   * The live expireAfterSeconds each collMod step that runs without allowRetroactive was judged a
   * lengthening of. MongoDB has no compare-and-set for collMod, so the reply's `_old` value is
   * compared with it: another process may have changed the index since it was read.
   */
  readonly judgedFrom: ReadonlyMap<MongoPlanStep, number>;
}

/** Runs one schema command; a failure that means its outcome already holds counts as done. */
export async function runStep(run: MongoStepRun, step: MongoPlanStep, command: Doc): Promise<void> {
  let reply: Doc;
  try {
    reply = await run.db.command(command);
  } catch (error) {
    if (tolerated(command, serverCode(error))) return;
    throw stepError(step, error);
  }
  const ttl = ttlCommandOf(command);
  if (ttl.kind === 'collMod') checkCollModReply(step, ttl, reply, run.judgedFrom.get(step));
}

/** Failures that mean the step's outcome already holds (another process got there first). */
function tolerated(command: Doc, code: number | undefined): boolean {
  if ('create' in command) return code === ERROR_CODES.namespaceExists;
  if ('dropIndexes' in command) return code === ERROR_CODES.indexNotFound;
  return false;
}

function stepError(step: MongoPlanStep, error: unknown): StoreError {
  const code = serverCode(error);
  const where = { store: STORE, entity: step.entity ?? undefined, cause: error };
  const said = serverMessage(error);
  if (code === ERROR_CODES.indexOptionsConflict) {
    return new StoreError(
      'MONGO_INDEX_OPTIONS_CONFLICT',
      `${step.summary}: an index on the same key already exists with other options (${said})`,
      { ...where, hint: 'the collection changed after the plan was made; plan again and review the new plan' },
    );
  }
  if (code === ERROR_CODES.indexKeySpecsConflict) {
    return new StoreError(
      'MONGO_INDEX_NAME_CONFLICT',
      `${step.summary}: an index with that name exists on another key (${said})`,
      { ...where, hint: 'the collection changed after the plan was made; plan again (it picks a free name)' },
    );
  }
  if (code === ERROR_CODES.indexNotFound) {
    return new StoreError('MONGO_INDEX_GONE', `${step.summary}: the index no longer exists (${said})`, {
      ...where,
      hint: 'the collection changed after the plan was made; plan again',
    });
  }
  return new StoreError('STORE_OPERATION_FAILED', `${step.summary}: ${said}`, {
    ...where,
    hint: 'check the user has the privileges for createIndexes/collMod/dropIndexes on the collection',
  });
}

type CollMod = Extract<TtlCommand, { readonly kind: 'collMod' }>;

/**
 * collMod answers expireAfterSeconds_new (and _old when the index had a TTL); a `_new` other than
 * the value sent means the server did not do what was asked. `judged`: the live value a step run
 * without consent was judged a lengthening of; if another process changed the index meanwhile so
 * that this step shortened it, the step fails saying what to put back.
 */
function checkCollModReply(step: MongoPlanStep, sent: CollMod, reply: Doc, judged: number | undefined): void {
  const got = reply[`${EXPIRE_AFTER_SECONDS}_new`];
  if (got !== undefined && Number(got) !== sent.to) {
    throw new StoreError(
      'MONGO_COLLMOD_MISMATCH',
      `${step.summary}: the server reports expireAfterSeconds_new ${String(got)}, not ${String(sent.to)}`,
      { store: STORE, entity: step.entity ?? undefined, hint: 'inspect the index with getIndexes() before writing' },
    );
  }
  // No _new: the index already held the value sent, so this step changed nothing.
  if (judged === undefined || got === undefined) return;
  const old = reply[`${EXPIRE_AFTER_SECONDS}_old`];
  // No _old with a _new: the index had no TTL, and this step made it one.
  const was = old === undefined ? null : numeric(old);
  if (was === judged || lengthens(was, sent.to)) return;
  throw changedMeanwhile(step, sent, judged, was);
}

function changedMeanwhile(step: MongoPlanStep, sent: CollMod, judged: number, was: unknown): StoreError {
  const before = was === null ? 'a plain index (no expireAfterSeconds)' : `expireAfterSeconds ${showValue(was)}`;
  const putBack =
    was === null
      ? `drop the index and create it again without expireAfterSeconds`
      : `run ${shellCommand({ collMod: sent.collection, index: { keyPattern: sent.key, [EXPIRE_AFTER_SECONDS]: was } })}`;
  return new StoreError(
    'MONGO_TTL_CHANGED_MEANWHILE',
    `${step.summary}: this step was judged a lengthening of the live expireAfterSeconds ${judged}, but another ` +
      `process changed the index to ${before} before it ran, so it has now set ${showValue(sent.to)} without ` +
      `allowRetroactive: documents stored in '${sent.collection}' can expire at the next TTL monitor pass; ` +
      'the steps after it were not run',
    {
      store: STORE,
      entity: step.entity ?? undefined,
      hint: `to put the index back at once (the monitor runs every 60 s), ${putBack}; then plan again and review`,
    },
  );
}
