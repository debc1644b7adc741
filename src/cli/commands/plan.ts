import { connect } from '../../connect';
import type { MigrationPlan } from '../../explain/plan';
import { renderPlans } from '../../explain/render-plan';
import { EXIT_MODEL, EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { parseFormat } from '../options';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface PlanCommandOptions extends TargetOptions {
  readonly format?: string;
  readonly counts?: boolean;
  readonly check?: boolean;
  readonly allowDestructive?: boolean;
}

/** `lifespan plan`: diff every store against the model; with --check, exit 1 on drift. */
export async function planCommand(options: PlanCommandOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format);
  return withTargets(options, io, async ({ model, targets }, out) => {
    const plans: MigrationPlan[] = [];
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        plans.push(
          await db.plan({ counts: options.counts ?? false, allowDestructive: options.allowDestructive ?? false }),
        );
      } finally {
        await db.close();
      }
    }
    out.out(renderPlans(plans, format));
    const drifted = plans.some((p) => p.steps.length > 0);
    if (options.check && drifted) {
      out.err(`drift: ${plans.filter((p) => p.steps.length > 0).length} store(s) differ from the model\n`);
      return EXIT_MODEL;
    }
    return EXIT_OK;
  });
}
