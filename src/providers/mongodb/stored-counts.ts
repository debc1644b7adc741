import { expiresStoredBy } from '../../core/plan-gate';
import { HELLO_COMMAND, type Doc } from './commands';
import type { MongoDbLike } from './gateway';
import type { CountSpec, MongoPlanStep } from './step-payload';
import { MONGODB_STEPS } from './steps';

/** Counts, per step, the stored documents it makes eligible for deletion at once (server clock). */
export async function countAffected(db: MongoDbLike, steps: readonly MongoPlanStep[]): Promise<MongoPlanStep[]> {
  // Which steps make stored documents eligible is the step table's judgement; the payload holds what to count.
  const countOf = (step: MongoPlanStep) =>
    expiresStoredBy(MONGODB_STEPS, step) && step.payload.op === 'command' ? step.payload.count : null;
  const now = steps.some((s) => countOf(s) !== null) ? await serverNow(db) : null;
  const counted: MongoPlanStep[] = [];
  for (const step of steps) {
    const spec = countOf(step);
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

export async function serverNow(db: MongoDbLike): Promise<Date | null> {
  const reply = await db.command(HELLO_COMMAND);
  const time = reply['localTime'];
  return time instanceof Date ? time : null;
}
