import { ErrorCodes } from '../../error-codes';
import { LifespanError, StoreError } from '../../errors';
import { badPlanStep, wrongStorePlan } from '../../plan-errors';
import type { ApplyResult, MigrationPlan, PlanStep } from '../../explain/plan';
import type { ApplyOptions } from '../contract';
import { HELLO_COMMAND, type Doc } from './commands';
import { serverCode, serverMessage, type MongoDbLike } from './gateway';
import { checkExpireAfterSeconds, checkTtlKey } from './guards';
import type { CountSpec, MongoPlanStep, MongoStepPayload } from './plan';
import { ERROR_CODES, EXPIRE_AFTER_SECONDS, STORE } from './semantics';

/** Runs a plan's steps in order. Conflicts and unallowed destructive steps stop it before anything runs. */
export async function applyPlan(
  db: MongoDbLike,
  plan: MigrationPlan,
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  if (plan.store !== STORE) {
    throw wrongStorePlan(plan.store, STORE);
  }
  const steps = plan.steps.map(checkedStep);
  const conflicts = steps.filter(isConflict);
  if (conflicts.length > 0) {
    throw new LifespanError(
      ErrorCodes.PLAN_CONFLICT,
      `the plan has ${conflicts.length} conflict(s) MongoDB cannot resolve in place: ${conflicts.map((c) => c.summary).join('; ')}`,
      {
        store: STORE,
        entity: conflicts[0]?.entity ?? undefined,
        hint: 'resolve them by hand, or plan({ allowDestructive: true }) to drop and recreate, then apply with allowDestructive',
      },
    );
  }
  const destructive = steps.filter(isDestructive);
  if (destructive.length > 0 && !options.allowDestructive) {
    throw new LifespanError(
      ErrorCodes.PLAN_DESTRUCTIVE_NOT_ALLOWED,
      `the plan has ${destructive.length} destructive step(s): ${destructive.map((s) => s.summary).join('; ')}`,
      {
        store: STORE,
        entity: destructive[0]?.entity ?? undefined,
        hint: 'review them, then apply(plan, { allowDestructive: true })',
      },
    );
  }
  const applied: PlanStep[] = [];
  for (const step of steps) {
    if (step.payload.op === 'command') await runStep(db, step, step.payload.command);
    applied.push(step);
  }
  return { applied };
}

/** A conflict by its payload (which apply would skip) or by its label: either stops the plan. */
export function isConflict(step: MongoPlanStep): boolean {
  return step.payload.op === 'conflict' || step.class === 'conflict';
}

/** Destructive by what the payload runs, so relabelling a step's class cannot smuggle a drop through. */
function isDestructive(step: MongoPlanStep): boolean {
  return (
    step.class === 'destructive' ||
    (step.payload.op === 'command' && commandKind(step.payload.command) === 'dropIndexes')
  );
}

/**
 * The schema commands a MongoDB plan is made of, with the fields lifespan puts in them; anything
 * else in a payload (a `drop`, a collection-level expireAfterSeconds) is refused.
 */
const COMMAND_FIELDS = {
  create: ['create'],
  createIndexes: ['createIndexes', 'indexes'],
  collMod: ['collMod', 'index'],
  dropIndexes: ['dropIndexes', 'index'],
} as const;
type CommandKind = keyof typeof COMMAND_FIELDS;

function commandKind(command: Doc): CommandKind | undefined {
  const [first] = Object.keys(command);
  if (first === undefined || !Object.hasOwn(COMMAND_FIELDS, first)) return undefined;
  const allowed: readonly string[] = COMMAND_FIELDS[first as CommandKind];
  return Object.keys(command).every((k) => allowed.includes(k)) ? (first as CommandKind) : undefined;
}

function checkedStep(step: PlanStep): MongoPlanStep {
  const payload = step.payload as Partial<MongoStepPayload> | undefined;
  const command =
    payload?.op === 'command' && typeof payload.command === 'object' && payload.command !== null
      ? payload.command
      : undefined;
  const ok =
    (command !== undefined && commandKind(command) !== undefined) ||
    (payload?.op === 'conflict' && typeof payload.reason === 'string');
  if (!ok) {
    throw badPlanStep(STORE, `step '${step.summary}' carries no MongoDB schema command lifespan makes`, step.entity);
  }
  if (command !== undefined) guardTtlOptions(command);
  return step as MongoPlanStep;
}

/** The TTL values of a payload pass the same guards as when the plan was made (a plan is plain, editable data). */
function guardTtlOptions(command: Doc): void {
  const collection = String(Object.values(command)[0]);
  const specs: unknown[] =
    'createIndexes' in command ? (Array.isArray(command['indexes']) ? command['indexes'] : []) : [command['index']];
  for (const spec of specs) {
    if (typeof spec !== 'object' || spec === null || !(EXPIRE_AFTER_SECONDS in spec)) continue;
    const s = spec as Doc;
    checkExpireAfterSeconds(s[EXPIRE_AFTER_SECONDS], collection);
    checkTtlKey((s['key'] ?? s['keyPattern'] ?? {}) as Doc, collection);
  }
}

async function runStep(db: MongoDbLike, step: MongoPlanStep, command: Doc): Promise<void> {
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
