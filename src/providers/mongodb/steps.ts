import { shorterTtl } from '../../core/plan-consent';
import { refuse, type StepRules } from '../../core/plan-gate';
import { LifespanError } from '../../errors';
import { runStep, type MongoStepRun } from './apply';
import { shellCommand, ttlCommandOf, type Doc } from './commands';
import { checkExpireAfterSeconds, checkTtlKey } from './ttl-limits';
import type { MongoStepPayload } from './step-payload';
import { STORE } from './semantics';

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

const NOT_MADE_HERE = 'carries no MongoDB schema command lifespan makes';

/**
 * The TTL settings of a payload pass the same guards as when the plan was made (a plan is plain,
 * editable data): why they fail, as the step's refusal, or null.
 */
function ttlRefusal(command: Doc): string | null {
  const ttl = ttlCommandOf(command);
  if (ttl.kind === 'malformed') return `${NOT_MADE_HERE}: ${ttl.why}`;
  if (ttl.kind === 'none') return null;
  try {
    for (const { key, to } of ttl.kind === 'collMod' ? [ttl] : ttl.settings) {
      checkExpireAfterSeconds(to, ttl.collection);
      checkTtlKey(key, ttl.collection);
    }
    return null;
  } catch (error) {
    if (error instanceof LifespanError) return `carries a TTL index value lifespan never sends: ${error.detail}`;
    throw error;
  }
}

export const MONGODB_STEPS: StepRules<MongoStepPayload, 'op', MongoStepRun> = {
  store: STORE,
  discriminant: 'op',
  expiresSooner: shorterTtl,
  conflictHint:
    'resolve them by hand, or plan({ allowDestructive: true }) to drop and recreate, then apply with allowDestructive',
  table: {
    command: {
      parse(payload) {
        const command = payload['command'];
        if (typeof command !== 'object' || command === null || commandKind(command as Doc) === undefined) {
          return refuse(NOT_MADE_HERE);
        }
        const refused = ttlRefusal(command as Doc);
        return refused === null
          ? (payload as unknown as Extract<MongoStepPayload, { op: 'command' }>)
          : refuse(refused);
      },
      blocks: () => false,
      // Destructive by what the payload runs, so relabelling a step's class cannot smuggle a drop through.
      destroys: (payload) => commandKind(payload.command) === 'dropIndexes',
      // The plan's claim: a count of the documents it can expire exactly when it can (a missing count
      // counts as one). It is a claim in editable data, so apply() also judges the step against the
      // live index (live-consent.ts); checkPlan(), which reads nothing, has only this.
      expiresStored: (payload) => payload.count !== null,
      // A collMod carries only the new value: whether a lengthening keeps due documents is judged
      // against the live index and the stored documents at apply() (unexpiry.ts refuseLiveUnexpiry).
      unexpiresStored: () => false,
      async apply(payload, step, run) {
        await runStep(run, step, payload.command);
        return true;
      },
      render: (payload) => shellCommand(payload.command),
      explain: 'one schema command: create, createIndexes, collMod or dropIndexes',
    },
    conflict: {
      parse: (payload) =>
        typeof payload['reason'] === 'string'
          ? (payload as unknown as Extract<MongoStepPayload, { op: 'conflict' }>)
          : refuse(NOT_MADE_HERE),
      blocks: () => true,
      destroys: () => false,
      expiresStored: () => false,
      unexpiresStored: () => false,
      // Never reached: the gate refuses a plan with a conflict before any step runs.
      apply: async () => false,
      render: (payload) => `// not applied: ${payload.reason}`,
      explain: 'a change MongoDB cannot make in place (never run)',
    },
  },
};
