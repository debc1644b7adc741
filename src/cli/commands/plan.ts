import { connect } from '../../connect';
import type { MigrationPlan } from '../../core/plan';
import { renderPlans } from '../../explain/render-plan';
import { paintPlanText } from '../colour';
import { EXIT_DRIFT, EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { parseFormat } from '../options';
import { workingTree } from '../review/git-base';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';
import { shown } from '../invocation';

export interface PlanCommandOptions extends TargetOptions {
  readonly format?: string;
  readonly counts?: boolean;
  readonly check?: boolean;
  readonly allowDestructive?: boolean;
}

/** `lifespan plan`: diff every store against the model; with --check, exit 1 on drift. */
export async function planCommand(options: PlanCommandOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format);
  return withTargets(options, io, async ({ model, targets, modelsFile }, out) => {
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
    const rendered = renderPlans(plans, format, {
      names: targets.map((t) => t.name),
      against: 'the live store',
      ...(modelsFile ? { modelsFile: shown(modelsFile) } : {}),
      ...workingTree(process.cwd(), modelsFile ? [modelsFile] : []),
    });
    out.out(format === 'text' ? paintPlanText(rendered, out.paint ?? ((_s, t) => t)) : rendered);
    const drifted = plans.filter((p) => p.steps.length > 0);
    if (options.check && drifted.length > 0) {
      out.err(`drift: ${drifted.length} store(s) differ from the model\n`);
      return EXIT_DRIFT;
    }
    return EXIT_OK;
  });
}
