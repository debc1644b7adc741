import { connect } from '../../connect';
import { explain } from '../../explain-model';
import { ExplainReport } from '../../explain/report';
import type { ExplainEntry } from '../../explain/entry';
import type { MigrationPlan } from '../../explain/plan';
import { renderPlans } from '../../explain/render-plan';
import type { Io } from '../io';
import { loadModel } from '../load-model';
import { parseFormat, parseStores } from '../options';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';

export interface ExplainCommandOptions extends TargetOptions {
  readonly format?: string;
  readonly emulate?: boolean;
}

/**
 * `lifespan explain <models-file> [--store kinds]`: what each store kind will do, no connection.
 * `lifespan explain --store <configured name>` (no file): explain a live store, with its drift.
 */
export async function explainCommand(file: string | undefined, options: ExplainCommandOptions, io: Io): Promise<void> {
  const format = parseFormat(options.format);
  if (file !== undefined) {
    const stores = parseStores(options.store);
    const model = await loadModel(file);
    const report = explain(model, { stores, relational: { ttl: options.emulate ? 'emulate' : 'ignore' } });
    io.out(report.render(format));
    return;
  }
  await withTargets(options, io, async ({ model, targets }, out) => {
    const entries: ExplainEntry[] = [];
    const plans: MigrationPlan[] = [];
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        entries.push(...db.explain().entries);
        plans.push(await db.plan());
      } finally {
        await db.close();
      }
    }
    const report = new ExplainReport(entries);
    if (format === 'json') {
      const drift = JSON.parse(renderPlans(plans, 'json')) as unknown;
      out.out(JSON.stringify({ ...report.toJSON(), drift }, null, 2) + '\n');
      return;
    }
    out.out(report.render(format));
    out.out(format === 'markdown' ? '\n## Drift against the live store\n\n' : '\n== drift against the live store ==\n');
    out.out(renderPlans(plans, format, { names: targets.map((t) => t.name) }));
  });
}
