/**
 * One decorator function serves both TypeScript standards, told apart by what it is called with:
 * a TC39 standard decorator receives (value, context) where context has a `kind`; a legacy
 * (experimentalDecorators) decorator receives (target, member[, descriptor]). Anything else, or a
 * kind lifespan does not decorate (methods, getters, statics), is a ModelError naming the tsconfig
 * option to set.
 */
import { ModelError } from '../errors';
import type { EntityDraft, FieldDraft } from '../model/draft';
import { fieldDraft } from '../model/draft';
import { ownDraft, ownStandardDraft } from '../model/class-metadata';
import { classOf, designTypeOf } from './metadata';

export const TSCONFIG_HINT =
  'lifespan supports TypeScript legacy decorators ("experimentalDecorators": true, with "emitDecoratorMetadata": true ' +
  'for member types) and TC39 standard decorators (TypeScript 5+, "experimentalDecorators" false or unset); ' +
  'see docs/declaring-ttl.md, "tsconfig"';

interface StandardContext {
  readonly kind: string;
  readonly name: string | symbol;
  readonly static?: boolean;
  readonly private?: boolean;
  readonly metadata?: Record<PropertyKey, unknown>;
}

export function isStandardContext(value: unknown): value is StandardContext {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    'name' in value
  );
}

/** Where a member decorator records: the class's draft and the member's field draft. */
export interface MemberSite {
  readonly draft: EntityDraft;
  readonly name: string;
  readonly field: FieldDraft;
}

/** Resolves a member decorator call of either standard to the draft it records into. */
export function memberSite(decorator: string, args: readonly unknown[]): MemberSite {
  const [first, second] = args;
  if (isStandardContext(second)) {
    if (second.kind !== 'field' && second.kind !== 'accessor') {
      throw misuse(decorator, `is on a ${second.kind} (${String(second.name)})`, 'put it on a field');
    }
    if (second.static || second.private || typeof second.name !== 'string') {
      throw misuse(decorator, `is on ${describeMember(second)}`, 'put it on a public instance field');
    }
    const draft = ownStandardDraft(metadataOf(decorator, second));
    return { draft, name: second.name, field: fieldDraft(draft, second.name) };
  }
  if (typeof args[2] === 'number' && (typeof first === 'object' || typeof first === 'function')) {
    // Legacy parameter decorators get (target, member or undefined, index): not a property either way.
    const where = second === undefined ? 'the constructor' : String(second);
    throw misuse(decorator, `is on a constructor or method parameter (${where})`, 'put it on a property');
  }
  if (typeof first === 'object' && first !== null && (typeof second === 'string' || typeof second === 'symbol')) {
    if (args[2] !== undefined && typeof (args[2] as { get?: unknown }).get !== 'function') {
      throw misuse(decorator, `is on a method (${String(second)})`, 'put it on a property');
    }
    const name = String(second);
    const draft = ownDraft(classOf(first));
    const field = fieldDraft(draft, name);
    const designType = designTypeOf(first, second);
    if (designType !== undefined) field.designType = designType;
    return { draft, name, field };
  }
  if (typeof first === 'function' && (typeof second === 'string' || typeof second === 'symbol')) {
    throw misuse(decorator, `is on a static member (${String(second)})`, 'put it on an instance property');
  }
  throw misuse(decorator, 'was called in a way neither decorator standard calls it', TSCONFIG_HINT);
}

/** Resolves a class decorator call of either standard to the class and its draft. */
export function classSite(decorator: string, args: readonly unknown[]): { target: object; draft: EntityDraft } {
  const [first, second] = args;
  if (typeof first !== 'function') {
    throw misuse(decorator, 'was not called with a class', TSCONFIG_HINT);
  }
  if (isStandardContext(second)) {
    if (second.kind !== 'class') throw misuse(decorator, `is on a ${second.kind}`, 'put it on the class');
    return { target: first, draft: ownStandardDraft(metadataOf(decorator, second)) };
  }
  return { target: first, draft: ownDraft(first) };
}

function metadataOf(decorator: string, context: StandardContext): Record<PropertyKey, unknown> {
  if (typeof context.metadata === 'object' && context.metadata !== null) return context.metadata;
  throw misuse(
    decorator,
    'got no decorator metadata (context.metadata is undefined)',
    'import lifespan before the decorated class is defined (it installs Symbol.metadata, which Node 20 lacks), or set "experimentalDecorators": true; ' +
      TSCONFIG_HINT,
  );
}

function describeMember(context: StandardContext): string {
  const parts = [context.static ? 'a static' : 'an instance', context.private ? 'private' : '', context.kind];
  return `${parts.filter(Boolean).join(' ')} (${String(context.name)})`;
}

function misuse(decorator: string, problem: string, hint: string): ModelError {
  return new ModelError([{ code: 'MODEL_DECORATOR_UNSUPPORTED', message: `${decorator} ${problem}`, hint }]);
}
