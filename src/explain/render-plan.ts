import { cell } from './render-markdown';
import type { MigrationPlan, PlanStep } from './plan';
import type { ReportFormat } from './report';

function ttlChange(step: PlanStep): string {
  if (!step.ttl) return '—';
  const show = (s: number | null) => (s === null ? 'none' : `${s}s`);
  return `${show(step.ttl.from)} → ${show(step.ttl.to)}`;
}

function affected(step: PlanStep): string {
  const n = step.effect?.affected;
  return n === undefined || n === null ? '—' : String(n);
}

export function renderPlanText(plan: MigrationPlan): string {
  if (plan.steps.length === 0) return `${plan.store} (${plan.target}): in sync with the model, nothing to do.\n`;
  const lines = [`${plan.store} (${plan.target}): ${plan.steps.length} step(s)`];
  plan.steps.forEach((step, i) => {
    lines.push(`${i + 1}. [${step.class}] ${step.summary}`);
    if (step.ttl) lines.push(`   TTL ${ttlChange(step)}`);
    if (step.effect) {
      const count = affected(step) === '—' ? '' : ` (${affected(step)} stored records affected)`;
      lines.push(`   effect: ${step.effect.kind}: ${step.effect.text}${count}`);
    }
    lines.push(`   ${step.command.split('\n').join('\n   ')}`);
  });
  return lines.join('\n') + '\n';
}

export function renderPlanMarkdown(plans: readonly MigrationPlan[]): string {
  const out = [
    '| entity | store | TTL old → new | change | class | effect | records affected |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const plan of plans) {
    for (const step of plan.steps) {
      out.push(
        `| ${cell(step.entity ?? '—')} | ${plan.store} | ${ttlChange(step)} | ${step.action} | ${step.class} | ${step.effect?.kind ?? '—'} | ${affected(step)} |`,
      );
    }
  }
  if (plans.every((p) => p.steps.length === 0)) out.push('| — | — | — | in sync | — | — | — |');
  for (const plan of plans) {
    plan.steps.forEach((step, i) => {
      out.push('', `### ${plan.store} step ${i + 1}: ${cell(step.summary)}`);
      if (step.effect)
        out.push(
          '',
          `${step.effect.text}${step.effect.verified ? '' : ' _(per the store documentation; not yet confirmed by a live test)_'}`,
        );
      out.push('', '```', step.command, '```');
    });
  }
  return out.join('\n') + '\n';
}

export function renderPlans(plans: readonly MigrationPlan[], format: ReportFormat): string {
  if (format === 'json') return JSON.stringify({ plans: plans.map(stripPayload) }, null, 2) + '\n';
  if (format === 'markdown') return renderPlanMarkdown(plans);
  return plans.map(renderPlanText).join('\n');
}

function stripPayload(plan: MigrationPlan) {
  return { ...plan, steps: plan.steps.map(({ payload: _payload, ...rest }) => rest) };
}
