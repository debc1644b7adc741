import type { MigrationPlan, PlanStep, StepClass } from '../../core/plan';
import { longerTtl, withUnexpiry } from '../../core/plan-consent';
import { DESCRIPTORS } from '../../providers/registry';
import type { Snapshot, SnapshotEntry } from './snapshot-file';

/**
 * The change from one snapshot to another as plans, one per store kind, so `diff` renders in the
 * same formats as `plan`. No store is read: affected counts stay unknown (plan --counts gives them).
 */
export function compareSnapshots(before: Snapshot, after: Snapshot, against: string): MigrationPlan[] {
  const plans: MigrationPlan[] = [];
  for (const store of after.stores) {
    const old = new Map(before.entries.filter((e) => e.store === store).map((e) => [e.entity, e]));
    const steps: PlanStep[] = [];
    for (const now of after.entries.filter((e) => e.store === store)) {
      const was = old.get(now.entity);
      old.delete(now.entity);
      const step = changeStep(was, now);
      if (step) steps.push(step);
    }
    for (const gone of old.values()) steps.push(removedStep(gone));
    plans.push({ store, target: against, steps });
  }
  return plans;
}

const NOTHING_RUN = '-- nothing is run';

/**
 * A change shows the definition the new model wants, not the command apply runs for it (collMod,
 * ALTER TABLE, a container replace): that depends on what the live store has, which diff never reads.
 */
const DESIRED = '-- desired definition; `lifespan plan` against the live store shows the command apply runs\n';

function changeStep(was: SnapshotEntry | undefined, now: SnapshotEntry): PlanStep | undefined {
  if (was === undefined) {
    return step(now, 'new-entity', 'additive', `${now.entity}: new ${now.collection} (${now.mechanism})`, {
      from: null,
      to: now.seconds,
    });
  }
  const sameTtl = was.seconds === now.seconds && was.mechanism === now.mechanism && was.countsFrom === now.countsFrom;
  const sameRest = was.collection === now.collection && JSON.stringify(was.commands) === JSON.stringify(now.commands);
  if (sameTtl && sameRest) return undefined;
  if (sameTtl)
    return step(
      now,
      'schema-change',
      'in-place',
      `${now.entity}: ${now.collection} schema changes`,
      undefined,
      DESIRED,
    );
  const ttl = { from: was.seconds, to: now.seconds };
  if (was.mechanism === 'none' && now.mechanism === 'none') {
    const summary = `${now.entity}: declared TTL changes; ${now.collection} keeps no expiry on this store`;
    return { ...step(now, 'ttl-change', 'in-place', summary, ttl), command: NOTHING_RUN };
  }
  const what =
    was.mechanism !== now.mechanism
      ? `expiry mechanism ${was.mechanism} → ${now.mechanism}`
      : was.countsFrom !== now.countsFrom
        ? `expiry counts from ${was.countsFrom ?? 'nothing'} → ${now.countsFrom ?? 'nothing'}`
        : 'TTL change';
  const change = step(now, 'ttl-change', 'in-place', `${now.entity}: ${what} on ${now.collection}`, ttl, DESIRED);
  // Issue 25: a longer retroactive TTL, or emulation turned off, can bring due records back.
  const unexpires =
    (was.changeEffect.kind === 'retroactive' && longerTtl(was.seconds, now.seconds)) ||
    (was.mechanism === 'emulated' && now.mechanism !== 'emulated');
  return unexpires ? withUnexpiry(change, 'records due but still stored can become readable again') : change;
}

function removedStep(gone: SnapshotEntry): PlanStep {
  return {
    entity: gone.entity,
    collection: gone.collection,
    action: 'removed-entity',
    class: 'additive',
    summary: `${gone.entity}: no longer in the model (lifespan drops nothing; ${gone.collection} stays as it is)`,
    command: NOTHING_RUN,
    payload: null,
  };
}

function step(
  now: SnapshotEntry,
  action: string,
  klass: StepClass,
  summary: string,
  ttl?: { from: number | null; to: number | null },
  label = '',
): PlanStep {
  return {
    entity: now.entity,
    collection: now.collection,
    action,
    class: klass,
    summary,
    command: now.commands.length > 0 ? label + now.commands.join(';\n') : NOTHING_RUN,
    ...(ttl ? { ttl } : {}),
    // Offline: the effect is what the model says the store will do, not checked against a store.
    effect: {
      kind: effectKind(now),
      text: now.changeEffect.text,
      affected: null,
      verified: false,
      ...(stampedByCode(now) ? { stampedAtWrite: true } : {}),
      ...(perDocument(now) ? { perDocument: true } : {}),
    },
    payload: null,
  };
}

/** A change that reaches only new writes, on a store whose code stamps each record's expiry as it writes. */
function stampedByCode(now: SnapshotEntry): boolean {
  return (
    effectKind(now) === 'new-writes-only' &&
    DESCRIPTORS.some((store) => store.name === now.store && store.expiryStampedOnWrite)
  );
}

/**
 * Each record's own expiry decides: a TTL index counting from a date member of each document (a
 * change is retroactive, over each document's own date), or an expiry the code stamps into each
 * record (a change reaches only records written after deploy).
 */
function perDocument(now: SnapshotEntry): boolean {
  return effectKind(now) !== 'none' && (now.countsFrom?.startsWith('member:') === true || stampedByCode(now));
}

function effectKind(now: SnapshotEntry): 'retroactive' | 'new-writes-only' | 'none' {
  const kind = now.changeEffect.kind;
  return kind === 'retroactive' || kind === 'new-writes-only' ? kind : 'none';
}

export function changed(plans: readonly MigrationPlan[]): boolean {
  return plans.some((p) => p.steps.length > 0);
}
