/**
 * Type-level checks of the plan gate's step tables, run by `npm run typecheck` (not by jest): a
 * step kind in a store's payload union without a parser, an applier, a renderer or an explain
 * line does not compile.
 */
import type { StepRules, StepTable } from '../../src/core/plan-gate';
import { checkPlan, refuse, runSteps } from '../../src/core/plan-gate';
import { shorterTtl } from '../../src/core/plan-consent';
import type { PlanStep } from '../../src/core/plan';

type Payload = { readonly op: 'create'; readonly name: string } | { readonly op: 'drop'; readonly name: string };

const create = {
  parse: (p: Readonly<Record<string, unknown>>) =>
    typeof p['name'] === 'string' ? { op: 'create' as const, name: p['name'] } : refuse('has no name'),
  blocks: () => false,
  destroys: () => false,
  expiresStored: () => false,
  unexpiresStored: () => false,
  apply: async () => true,
  render: (p: { readonly name: string }) => `CREATE ${p.name}`,
  explain: 'creates it',
};

export function typeChecks(): void {
  const complete: StepTable<Payload, 'op', null> = {
    create,
    drop: {
      ...create,
      parse: () => ({ op: 'drop', name: 'x' }),
      destroys: () => true,
      render: (p) => `DROP ${p.name}`,
    },
  };
  // @ts-expect-error a kind of the union without a handler
  const missingKind: StepTable<Payload, 'op', null> = { create };
  const { apply: _apply, ...noApplier } = create;
  // @ts-expect-error a handler without an applier
  const missingApplier: StepTable<Payload, 'op', null> = { create, drop: noApplier };
  const { render: _render, ...noRenderer } = create;
  // @ts-expect-error a handler without a renderer
  const missingRenderer: StepTable<Payload, 'op', null> = { create, drop: noRenderer };
  const { expiresStored: _expiresStored, ...noRetroactiveRule } = create;
  // @ts-expect-error a handler that does not say whether it makes stored records expire
  const missingRetroactiveRule: StepTable<Payload, 'op', null> = { create, drop: noRetroactiveRule };
  const { explain: _explain, ...noExplainLine } = create;
  // @ts-expect-error a handler without an explain line
  const missingExplain: StepTable<Payload, 'op', null> = { create, drop: noExplainLine };
  // @ts-expect-error a parser that returns the payload of another kind
  const wrongParser: StepTable<Payload, 'op', null> = { create, drop: create };
  const rules: StepRules<Payload, 'op', null> = {
    store: 'test',
    discriminant: 'op',
    table: complete,
    conflictHint: '',
    expiresSooner: shorterTtl,
  };
  const raw: PlanStep<Payload>[] = [];
  // @ts-expect-error runSteps runs only steps the gate checked, never the caller's own
  void runSteps(rules, raw, null);
  void runSteps(rules, checkPlan(rules, { store: 'test', target: 't', steps: raw }, {}, undefined), null);
  void [complete, missingKind, missingApplier, missingRenderer, missingRetroactiveRule, missingExplain, wrongParser];
}
