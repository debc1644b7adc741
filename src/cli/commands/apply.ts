import { retroactiveSteps } from '../../apply-consent';
import { connect } from '../../connect';
import { LifespanError } from '../../errors';
import { renderPlanText } from '../../explain/render-plan';
import { paintPlanText } from '../colour';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface ApplyCommandOptions extends TargetOptions {
  readonly allowDestructive?: boolean;
  readonly allowRetroactive?: boolean;
  readonly yes?: boolean;
}

/**
 * `lifespan apply`: plans (with counts), shows the plan, asks on a terminal, applies. Outside a
 * terminal nothing is applied without --yes; a step that makes stored records expire at once
 * also needs --allow-retroactive. Every step is idempotent, so an interrupted run converges when run again.
 */
export async function applyCommand(options: ApplyCommandOptions, io: Io): Promise<number> {
  const allowDestructive = options.allowDestructive ?? false;
  const allowRetroactive = options.allowRetroactive ?? false;
  const interactive = Boolean(io.isTty && io.confirm);
  return withTargets(options, io, async ({ model, targets }, out) => {
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        const plan = await db.plan({ allowDestructive, counts: true });
        out.out(paintPlanText(renderPlanText(plan, target.name), out.paint ?? ((_s, t) => t)));
        if (plan.steps.every((s) => s.class === 'conflict' && s.blocking === false)) continue;
        const conflicts = plan.steps.filter((s) => s.class === 'conflict' && s.blocking !== false);
        for (const leftover of plan.steps.filter((s) => s.class === 'conflict' && s.blocking === false)) {
          out.err(`note: ${leftover.summary} (left as is; does not block the other steps)\n`);
        }
        if (conflicts.length > 0) {
          throw new LifespanError('APPLY_CONFLICT', `${conflicts.length} step(s) cannot be made in place`, {
            store: target.name,
            hint: 'resolve them by hand, or re-run with --allow-destructive to drop and recreate (data is lost)',
          });
        }
        const destructive = plan.steps.filter((s) => s.class === 'destructive');
        if (destructive.length > 0 && !allowDestructive) {
          throw new LifespanError('APPLY_DESTRUCTIVE', `${destructive.length} step(s) are destructive`, {
            store: target.name,
            hint: 'review them and re-run with --allow-destructive',
          });
        }
        const retroactive = retroactiveSteps(plan);
        if (retroactive.length > 0 && !allowRetroactive) {
          const counted = retroactive.map((s) => s.effect?.affected).filter((n): n is number => typeof n === 'number');
          const impact = counted.length > 0 ? ` (${counted.reduce((a, b) => a + b, 0)} stored records)` : '';
          throw new LifespanError(
            'APPLY_NEEDS_RETROACTIVE',
            `${retroactive.length} step(s) make records already stored expire at once${impact}; nothing was applied`,
            { store: target.name, hint: 'review the counts above and re-run with --allow-retroactive' },
          );
        }
        if (!options.yes && !interactive) {
          throw new LifespanError(
            'APPLY_NEEDS_CONSENT',
            `not applied to ${target.name}: no terminal to ask, and no --yes`,
            {
              hint: 'review the plan above (or run lifespan plan --counts) and re-run with --yes',
            },
          );
        }
        if (!options.yes && io.confirm) {
          const go = await io.confirm(`Apply ${plan.steps.length} step(s) to ${target.name}? [y/N] `);
          if (!go) {
            out.out('not applied\n');
            continue;
          }
        }
        const result = await db.apply(plan, { allowDestructive, allowRetroactive });
        out.out(`applied ${result.applied.length} step(s) to ${target.name}\n`);
      } finally {
        await db.close();
      }
    }
    return EXIT_OK;
  });
}
