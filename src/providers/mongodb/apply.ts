import { StoreError } from '../../errors';
import { HELLO_COMMAND, type Doc } from './commands';
import { serverCode, serverMessage, type MongoDbLike } from './gateway';
import type { CountSpec, MongoPlanStep } from './plan';
import { ERROR_CODES, EXPIRE_AFTER_SECONDS, STORE } from './semantics';

/** Runs one schema command; a failure that means its outcome already holds counts as done. */
export async function runStep(db: MongoDbLike, step: MongoPlanStep, command: Doc): Promise<void> {
  let reply: Doc;
  try {
    reply = await db.command(command);
  } catch (error) {
    if (tolerated(command, serverCode(error))) return;
    throw stepError(step, error);
  }
  if ('collMod' in command) checkCollModReply(step, command, reply);
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
  return new StoreError('MONGO_COMMAND_FAILED', `${step.summary}: ${said}`, {
    ...where,
    hint: 'check the user has the privileges for createIndexes/collMod/dropIndexes on the collection',
  });
}

/** collMod answers expireAfterSeconds_new; anything else means the server did not do what was asked. */
function checkCollModReply(step: MongoPlanStep, command: Doc, reply: Doc): void {
  const wanted = (command['index'] as Doc | undefined)?.[EXPIRE_AFTER_SECONDS];
  const got = reply[`${EXPIRE_AFTER_SECONDS}_new`];
  if (got !== undefined && Number(got) !== wanted) {
    throw new StoreError(
      'MONGO_COLLMOD_MISMATCH',
      `${step.summary}: the server reports expireAfterSeconds_new ${String(got)}, not ${String(wanted)}`,
      { store: STORE, entity: step.entity ?? undefined, hint: 'inspect the index with getIndexes() before writing' },
    );
  }
}

/** Counts, per step, the stored documents it makes eligible for deletion at once (server clock). */
export async function countAffected(db: MongoDbLike, steps: readonly MongoPlanStep[]): Promise<MongoPlanStep[]> {
  const needed = steps.some((s) => s.payload.op === 'command' && s.payload.count !== null);
  const now = needed ? await serverNow(db) : null;
  const counted: MongoPlanStep[] = [];
  for (const step of steps) {
    const spec = step.payload.op === 'command' ? step.payload.count : null;
    if (!step.effect || step.effect.kind !== 'retroactive') {
      counted.push(step);
    } else if (spec === null) {
      // Lengthening a TTL makes nothing eligible: known without a query.
      counted.push({ ...step, effect: { ...step.effect, affected: 0 } });
    } else {
      const affected =
        now === null ? null : await db.collection(step.collection).countDocuments(countFilter(spec, now), {});
      counted.push({ ...step, effect: { ...step.effect, affected } });
    }
  }
  return counted;
}

/** Dates only: a range on a Date matches BSON dates alone (type bracketing), like the TTL monitor. */
export function countFilter(spec: CountSpec, now: Date): Doc {
  const range: Doc = { $lte: new Date(now.getTime() - spec.atOrBefore * 1000) };
  if (spec.after !== null) range['$gt'] = new Date(now.getTime() - spec.after * 1000);
  return { [spec.field]: range };
}

async function serverNow(db: MongoDbLike): Promise<Date | null> {
  const reply = await db.command(HELLO_COMMAND);
  const time = reply['localTime'];
  return time instanceof Date ? time : null;
}
