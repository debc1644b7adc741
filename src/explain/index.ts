export type { ExplainEntry, Mechanism, ChangeEffectKind, PerWriteRow } from './entry';
export { ExplainReport, type ReportFormat } from './report';
export type { MigrationPlan, PlanStep, StepClass, StepEffect, ApplyResult } from '../core/plan';
export { isInSync } from '../core/plan';
export { renderPlans, renderPlanText, renderPlanMarkdown } from './render-plan';
