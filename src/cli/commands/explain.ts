import { connect } from '../../connect';
import { ExplainReport } from '../../explain/report';
import type { ExplainEntry } from '../../explain/entry';
import type { MigrationPlan } from '../../core/plan';
import { renderMarkdown } from '../../explain/render-markdown';
import { PLAN_JSON_VERSION, renderPlans } from '../../explain/render-plan';
import type { Io } from '../io';
import { loadProjectConfig, type LifespanConfig } from '../config';
import { loadModel } from '../load-model';
import { explainFor, offlineChoice } from '../offline-stores';
import { parseFormat } from '../options';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';
import { shown } from '../invocation';

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
    const model = await loadModel(file);
    const choice = await offlineChoice(options, ...(await configFor(options, io)), io);
    const report = explainFor(model, choice);
    io.out(format === 'json' ? versioned(report.toJSON()) : report.render(format));
    if (choice.said && format !== 'json') io.out(`\n${choice.said}\n`);
    return;
  }
  await withTargets(options, io, async ({ model, targets }, out) => {
    const entries: ExplainEntry[] = [];
    const labels: string[] = [];
    const plans: MigrationPlan[] = [];
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        const own = db.explain().entries;
        entries.push(...own);
        // Two stores of one kind (SQLite and PostgreSQL, say) are told apart by key and target.
        for (const e of own) labels.push(`\`${target.name}\` (${e.store}: ${target.where})`);
        plans.push(await db.plan());
      } finally {
        await db.close();
      }
    }
    const report = new ExplainReport(entries);
    if (format === 'json') {
      const drift = JSON.parse(renderPlans(plans, 'json')) as unknown;
      out.out(versioned({ ...report.toJSON(), drift }));
      return;
    }
    out.out(format === 'markdown' ? renderMarkdown(entries, labels) : report.render(format));
    out.out(format === 'markdown' ? '\n## Drift against the live store\n\n' : '\n== drift against the live store ==\n');
    out.out(renderPlans(plans, format, { names: targets.map((t) => t.name) }));
  });
}

/** The project's config for an offline explain (its stores, narrowed by --store / --emulate). */
async function configFor(
  options: ExplainCommandOptions,
  io: Io,
): Promise<[LifespanConfig | undefined, string | undefined]> {
  const { config, configFile } = await loadProjectConfig(options.config, io);
  return [config, configFile && shown(configFile)];
}

/** JSON output with the format version first, so tools can check it before reading the rest. */
function versioned(body: object): string {
  return JSON.stringify({ version: PLAN_JSON_VERSION, ...body }, null, 2) + '\n';
}
