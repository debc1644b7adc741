import { connect } from '../../connect';
import { LifespanError } from '../../errors';
import { renderPlanText } from '../../explain/render-plan';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface ApplyCommandOptions extends TargetOptions {
  readonly allowDestructive?: boolean;
  readonly yes?: boolean;
}

/**
 * `lifespan apply`: plans, shows the plan, asks on a terminal (unless --yes), applies. Every
 * step is idempotent, so a run interrupted half-way converges when run again.
 */
export async function applyCommand(options: ApplyCommandOptions, io: Io): Promise<number> {
  const allowDestructive = options.allowDestructive ?? false;
  return withTargets(options, io, async ({ model, targets }, out) => {
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        const plan = await db.plan({ allowDestructive });
        out.out(renderPlanText(plan));
        if (plan.steps.every((s) => s.class === 'conflict' && s.blocking === false)) continue;
        const conflicts = plan.steps.filter((s) => s.class === 'conflict' && s.blocking !== false);
        for (const leftover of plan.steps.filter((s) => s.class === 'conflict' && s.blocking === false)) {
          out.err(`note: ${leftover.summary} (left as is; does not block the other steps)\n`);
        }
        if (conflicts.length > 0) {
          throw new LifespanError('APPLY_CONFLICT', `${conflicts.length} step(s) cannot be made in place`, {
            store: plan.store,
            hint: 'resolve them by hand, or re-run with --allow-destructive to drop and recreate (data is lost)',
          });
        }
        const destructive = plan.steps.filter((s) => s.class === 'destructive');
        if (destructive.length > 0 && !allowDestructive) {
          throw new LifespanError('APPLY_DESTRUCTIVE', `${destructive.length} step(s) are destructive`, {
            store: plan.store,
            hint: 'review them and re-run with --allow-destructive',
          });
        }
        if (!options.yes && io.isTty && io.confirm) {
          const go = await io.confirm(`Apply ${plan.steps.length} step(s) to ${target.name}? [y/N] `);
          if (!go) {
            out.out('not applied\n');
            continue;
          }
        }
        const result = await db.apply(plan, { allowDestructive });
        out.out(`applied ${result.applied.length} step(s) to ${target.name}\n`);
      } finally {
        await db.close();
      }
    }
    return EXIT_OK;
  });
}
