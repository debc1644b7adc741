import 'reflect-metadata';
import { cloneDraft, emptyDraft, type EntityDraft } from '../model/draft';
import type { EntityClass } from '../model/types';

/**
 * Decorated metadata lives on the class itself (reflect-metadata), never in a global registry:
 * only classes handed to the ModelBuilder end up in a model.
 */
const DRAFT = Symbol('lifespan:draft');
const ENTITY = Symbol('lifespan:entity');

/** The draft owned by this class; a subclass starts from a copy of its parent's. */
export function ownDraft(cls: object): EntityDraft {
  const own = Reflect.getOwnMetadata(DRAFT, cls) as EntityDraft | undefined;
  if (own) return own;
  const inherited = Reflect.getMetadata(DRAFT, cls) as EntityDraft | undefined;
  const draft = inherited ? cloneDraft(inherited) : emptyDraft();
  Reflect.defineMetadata(DRAFT, draft, cls);
  return draft;
}

export function decoratedDraft(cls: EntityClass): EntityDraft | undefined {
  return Reflect.getMetadata(DRAFT, cls) as EntityDraft | undefined;
}

export function markEntity(cls: object): void {
  Reflect.defineMetadata(ENTITY, true, cls);
}

export function isDecoratedEntity(cls: EntityClass): boolean {
  return Reflect.getOwnMetadata(ENTITY, cls) === true;
}

/** The class behind a legacy property decorator's target (the prototype, or the class for statics). */
export function classOf(target: object): object {
  return typeof target === 'function' ? target : (target as { constructor: object }).constructor;
}

export function designTypeOf(target: object, member: string | symbol): unknown {
  return Reflect.getMetadata('design:type', target, member);
}
