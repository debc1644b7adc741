import { connect, type StoreContext } from '../../connect';
import { LifespanError } from '../../errors';
import type { MigrationPlan, ReviewedPlan } from '../../core/plan';
import { renderPlanText } from '../../explain/render-plan';
import { paintPlanText } from '../colour';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import type { Target, TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface ApplyCommandOptions extends TargetOptions {
  readonly allowDestructive?: boolean;
  readonly allowRetroactive?: boolean;
  readonly allowUnexpiry?: boolean;
  readonly yes?: boolean;
}

interface Planned {
  readonly target: Target;
  readonly db: StoreContext;
  readonly plan: MigrationPlan;
}

/**
 * `lifespan apply`: plans every store (with counts) and shows the plans, runs every check on
 * every store, asks on a terminal, and only then applies. Outside a terminal nothing is applied
 * without --yes; a step that makes stored records expire at once also needs --allow-retroactive.
 * A refusal for any store therefore leaves every store untouched. Every step is idempotent, so
 * an interrupted run converges when run again.
 */
export async function applyCommand(options: ApplyCommandOptions, io: Io): Promise<number> {
  const allowDestructive = options.allowDestructive ?? false;
  const allowRetroactive = options.allowRetroactive ?? false;
  const allowUnexpiry = options.allowUnexpiry ?? false;
  const interactive = Boolean(io.isTty && io.confirm);
  return withTargets(options, io, async ({ model, targets }, out) => {
    const planned: Planned[] = [];
    try {
      for (const target of targets) {
        const db = await connect(model, target.opened.store);
        planned.push({ target, db, plan: await db.plan({ allowDestructive, counts: true }) });
      }
      const pending = planned.filter(
        ({ plan }) => !plan.steps.every((s) => s.class === 'conflict' && s.blocking === false),
      );
      for (const { target, plan } of planned) {
        out.out(paintPlanText(renderPlanText(plan, target.name), out.paint ?? ((_s, t) => t)));
      }
      for (const { target, plan } of pending) {
        for (const leftover of plan.steps.filter((s) => s.class === 'conflict' && s.blocking === false)) {
          out.err(`note: ${target.name}: ${leftover.summary} (left as is; does not block the other steps)\n`);
        }
      }
      // The plan gate judges every store's plan once, before any is applied; what runs is its verdict.
      const reviewed = new Map<Planned, ReviewedPlan>();
      for (const entry of pending) {
        try {
          reviewed.set(entry, entry.db.review(entry.plan, { allowDestructive, allowRetroactive, allowUnexpiry }));
        } catch (error) {
          out.err(`not applied to any store: ${entry.target.name} refuses its plan\n`);
          throw error;
        }
      }
      if (pending.length > 0 && !options.yes && !interactive) {
        throw new LifespanError(
          'APPLY_NEEDS_CONSENT',
          `not applied to ${pending.map((p) => p.target.name).join(', ')}: no terminal to ask, and no --yes`,
          { hint: 'review the plan above (or run lifespan plan --counts) and re-run with --yes' },
        );
      }
      const go: Planned[] = [];
      for (const entry of pending) {
        if (!options.yes && io.confirm) {
          const yes = await io.confirm(`Apply ${entry.plan.steps.length} step(s) to ${entry.target.name}? [y/N] `);
          if (!yes) {
            out.out(`not applied to ${entry.target.name}\n`);
            continue;
          }
        }
        go.push(entry);
      }
      for (const entry of go) {
        const result = await (reviewed.get(entry) as ReviewedPlan).apply();
        out.out(`applied ${result.applied.length} step(s) to ${entry.target.name}\n`);
      }
      // Every run ends with its outcome for every store, also when there was nothing to run.
      for (const { target, plan } of planned.filter((p) => !pending.includes(p))) {
        const conflicts = plan.steps.length;
        out.out(
          conflicts === 0
            ? `nothing to apply to ${target.name}: it matches the model\n`
            : `nothing applied to ${target.name}: only ${conflicts} non-blocking conflict(s), left as is\n`,
        );
      }
    } finally {
      for (const { db } of planned) await db.close();
    }
    return EXIT_OK;
  });
}
