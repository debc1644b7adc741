import { formatDuration } from '../model/duration';
import type { MigrationPlan, PlanStep } from '../core/plan';
import { cell } from './render-markdown';
import type { ReportFormat } from './report';

/** Version of the `--format json` shape; raised when a field changes meaning or goes away. */
export const PLAN_JSON_VERSION = 2;

/** What a rendering says about where it comes from (the title line of the markdown). */
export interface PlanRenderContext {
  /** Per plan, the configured store's name (config key); defaults to the store kind. */
  readonly names?: readonly string[];
  readonly modelsFile?: string;
  readonly commit?: string;
  /** The models are the working tree's, which differs from `commit`: the title says so instead of naming the commit. */
  readonly uncommitted?: boolean;
  readonly at?: Date;
  /** What the plans compare: 'live store' (plan) or e.g. 'snapshot lifespan.snapshot.json' (diff). */
  readonly against?: string;
}

/** `1h → 5m (3600 s → 300 s)`: readable first, exact in brackets. */
export function ttlChangeReadable(ttl: PlanStep['ttl']): string {
  if (!ttl) return '—';
  const short = (s: number | null) => (s === null ? 'none' : s === -1 ? 'on, no default' : formatDuration(s));
  const exact = (s: number | null) => (s === null ? 'none' : s === -1 ? '-1' : `${s} s`);
  return `${short(ttl.from)} → ${short(ttl.to)} (${exact(ttl.from)} → ${exact(ttl.to)})`;
}

/**
 * When the change reaches stored data: a store setting (container/table default, TTL index)
 * changes when `apply` runs; an emulated TTL or a per-write expiry field changes when the new
 * code that writes it is deployed.
 */
export function takesEffect(step: PlanStep): string {
  if (!step.ttl && step.class === 'additive') return 'at apply';
  if (step.effect?.kind === 'none') return 'nothing changes for stored data (no expiry on this store)';
  if (step.effect?.kind === 'new-writes-only') {
    return step.effect.stampedAtWrite ? 'at deploy (new writes of the new code)' : 'at apply, for writes after it';
  }
  return 'at apply';
}

/** The effect family: retroactive / new-writes-only, and per-document when each record's own expiry decides. */
export function effectFamily(step: PlanStep): string {
  if (!step.effect) return '—';
  return step.effect.perDocument ? `${step.effect.kind}, per-document` : step.effect.kind;
}

function affected(step: PlanStep): string {
  const n = step.effect?.affected;
  return n === undefined || n === null ? '—' : String(n);
}

/** 'un-expiry: 3 due records readable again; apply needs allowUnexpiry (CLI: --allow-unexpiry)'. */
export function unexpiryLine(step: PlanStep): string | null {
  if (step.effect?.unexpires !== true) return null;
  const n = step.effect.unexpired;
  const counted =
    typeof n === 'number'
      ? `${n.toLocaleString('en-US')} due record(s) readable again`
      : 'due records become readable again';
  return `un-expiry: ${counted}; apply needs allowUnexpiry (CLI: --allow-unexpiry)`;
}

/** 'at apply: 1,204 expire at once; within 1h: 3,400, was 0; …' from the counted forecast around a step. */
export function forecastLine(step: PlanStep): string | null {
  const forecast = step.effect?.forecast;
  if (!forecast) return null;
  const n = (v: number) => v.toLocaleString('en-US');
  const { before, after } = forecast;
  const atOnce = Math.max(0, after.due - before.due);
  const buckets = after.buckets.map((b, i) => {
    const was = before.buckets[i]?.count ?? 0;
    return `${b.label}: ${n(b.count)}${was === b.count ? '' : `, was ${n(was)}`}`;
  });
  const never =
    after.never === before.never ? `never: ${n(after.never)}` : `never: ${n(after.never)}, was ${n(before.never)}`;
  return [`at apply: ${n(atOnce)} expire at once`, ...buckets, never].join('; ');
}

function nameOf(plan: MigrationPlan, i: number, context: PlanRenderContext): string {
  return context.names?.[i] ?? plan.store;
}

export function renderPlanText(plan: MigrationPlan, name?: string): string {
  const head =
    name !== undefined && name !== plan.target
      ? `${name}: ${plan.store} (${plan.target})`
      : `${plan.store} (${plan.target})`;
  if (plan.steps.length === 0) return `${head}: in sync with the model, nothing to do.\n`;
  const lines = [`${head}: ${plan.steps.length} step(s)`];
  plan.steps.forEach((step, i) => {
    lines.push(`${i + 1}. [${step.class}] ${step.summary}`);
    if (step.ttl) lines.push(`   TTL ${ttlChangeReadable(step.ttl)}`);
    if (step.effect) {
      const count = affected(step) === '—' ? '' : ` (${affected(step)} stored records affected)`;
      lines.push(`   effect: ${effectFamily(step)}: ${step.effect.text}${count}`);
    }
    const unexpiry = unexpiryLine(step);
    if (unexpiry) lines.push(`   ${unexpiry}`);
    const forecast = forecastLine(step);
    if (forecast) lines.push(`   forecast: ${forecast}`);
    lines.push(`   takes effect: ${takesEffect(step)}`);
    lines.push(`   ${step.command.split('\n').join('\n   ')}`);
  });
  return lines.join('\n') + '\n';
}

/** Statements of a command, one per `;`-terminated line group. */
function statements(command: string): string[] {
  return command.split(/;\n/).map((s) => s.trim());
}

/**
 * A step's command with statements an earlier step of the same plan already shows (the
 * relational bookkeeping table, say) replaced by a pointer to that step.
 */
function withoutRepeats(command: string, seen: Map<string, number>, stepNo: number): string {
  return statements(command)
    .map((statement) => {
      const first = seen.get(statement);
      if (first !== undefined && first !== stepNo) return `-- (the same statement as in step ${first})`;
      seen.set(statement, stepNo);
      return statement;
    })
    .join(';\n');
}

function isLive(context: PlanRenderContext): boolean {
  return context.against === undefined || context.against === 'the live store';
}

function unverifiedNote(context: PlanRenderContext): string {
  return isLive(context)
    ? ' _(per the store’s documentation)_'
    : ' _(offline, from the model; `lifespan plan` against the live store confirms it)_';
}

function title(context: PlanRenderContext): string[] {
  const parts = [`# lifespan ${isLive(context) ? 'plan' : 'diff'}`];
  if (context.modelsFile) parts.push(`models \`${context.modelsFile}\``);
  if (context.commit) {
    parts.push(
      context.uncommitted ? `uncommitted working tree (on \`${context.commit}\`)` : `commit \`${context.commit}\``,
    );
  }
  if (context.against) parts.push(`against ${context.against}`);
  parts.push((context.at ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  return [parts.join(' · '), ''];
}

export function renderPlanMarkdown(plans: readonly MigrationPlan[], context: PlanRenderContext = {}): string {
  const label = (plan: MigrationPlan, i: number) =>
    `\`${cell(nameOf(plan, i, context))}\` (${plan.store}: ${cell(plan.target)})`;
  const out = [
    ...title(context),
    '| store | entity | TTL old → new | change | class | effect | takes effect | records affected |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  plans.forEach((plan, i) => {
    if (plan.steps.length === 0) out.push(`| ${label(plan, i)} | — | — | in sync | — | — | — | — |`);
    for (const step of plan.steps) {
      out.push(
        `| ${label(plan, i)} | ${cell(step.entity ?? '—')} | ${ttlChangeReadable(step.ttl)} | ${step.action} | ${step.class} | ${effectFamily(step)} | ${takesEffect(step)} | ${affected(step)} |`,
      );
    }
  });
  plans.forEach((plan, i) => {
    if (plan.steps.length === 0) return;
    out.push('', `## ${label(plan, i)}`);
    const seen = new Map<string, number>();
    plan.steps.forEach((step, n) => {
      out.push('', `### step ${n + 1}: ${cell(step.summary)}`);
      if (step.effect) {
        const doc = step.effect.verified ? '' : unverifiedNote(context);
        out.push('', `${step.effect.text}${doc}`);
      }
      const unexpiry = unexpiryLine(step);
      if (unexpiry) out.push('', `**${unexpiry}**`);
      const forecast = forecastLine(step);
      if (forecast) out.push('', `Forecast: ${forecast}`);
      out.push(
        '',
        '<details><summary>native command</summary>',
        '',
        '```',
        withoutRepeats(step.command, seen, n + 1),
        '```',
        '',
        '</details>',
      );
    });
  });
  return out.join('\n') + '\n';
}

export function renderPlans(
  plans: readonly MigrationPlan[],
  format: ReportFormat,
  context: PlanRenderContext = {},
): string {
  if (format === 'json') {
    const named = plans.map((plan, i) => ({ name: nameOf(plan, i, context), ...stripPayload(plan) }));
    return JSON.stringify({ version: PLAN_JSON_VERSION, plans: named }, null, 2) + '\n';
  }
  if (format === 'markdown') return renderPlanMarkdown(plans, context);
  return plans.map((plan, i) => renderPlanText(plan, context.names?.[i])).join('\n');
}

function stripPayload(plan: MigrationPlan) {
  return {
    ...plan,
    steps: plan.steps.map(({ payload: _payload, ...rest }) => ({
      ...rest,
      takesEffect: takesEffect(rest as PlanStep),
    })),
  };
}
