import 'reflect-metadata';
import { cloneDraft, emptyDraft, type EntityDraft } from './draft';
import type { EntityClass } from './types';

/**
 * Where an entity class keeps its decorated draft. It lives in the model because the model reads it
 * (ModelBuilder.build()) and the decorators only write it: the model never imports the decorators.
 *
 * Decorated metadata lives on the class itself, never in a global registry: only classes handed
 * to the ModelBuilder end up in a model. Legacy decorators (experimentalDecorators) receive the
 * class, so the draft is kept with reflect-metadata on it. TC39 standard decorators never receive
 * the class in a member decorator; they share the class's `context.metadata` object instead, so
 * the draft is kept there and read back through `Class[Symbol.metadata]`.
 */
const DRAFT = Symbol('lifespan:draft');
const ENTITY = Symbol('lifespan:entity');

/**
 * Node 20 has no Symbol.metadata, and without it TypeScript's emit passes `context.metadata ===
 * undefined` to standard decorators. lifespan installs it deliberately (the proposal's own
 * polyfill, `Symbol.metadata ??= …`), at import, which is before any class decorated with it is
 * evaluated; a runtime that has the symbol keeps its own. Symbol.for lets two copies of lifespan agree.
 */
const symbolWithMetadata = Symbol as unknown as { metadata?: symbol };
symbolWithMetadata.metadata ??= Symbol.for('Symbol.metadata');
const METADATA = symbolWithMetadata.metadata;

export type MetadataObject = Record<PropertyKey, unknown>;

/** The draft owned by this class (legacy decorators); a subclass starts from a copy of its parent's. */
export function ownDraft(cls: object): EntityDraft {
  const own = Reflect.getOwnMetadata(DRAFT, cls) as EntityDraft | undefined;
  if (own) return own;
  const inherited = Reflect.getMetadata(DRAFT, cls) as EntityDraft | undefined;
  const draft = inherited ? cloneDraft(inherited) : emptyDraft();
  Reflect.defineMetadata(DRAFT, draft, cls);
  return draft;
}

/**
 * The draft owned by the class being decorated (standard decorators). TypeScript gives a subclass a
 * metadata object whose prototype is the parent's, so an inherited draft is found and copied.
 */
export function ownStandardDraft(metadata: MetadataObject): EntityDraft {
  if (Object.hasOwn(metadata, DRAFT)) return metadata[DRAFT] as EntityDraft;
  const inherited = metadata[DRAFT] as EntityDraft | undefined;
  const draft = inherited ? cloneDraft(inherited) : emptyDraft();
  metadata[DRAFT] = draft;
  return draft;
}

export function decoratedDraft(cls: EntityClass): EntityDraft | undefined {
  const legacy = Reflect.getMetadata(DRAFT, cls) as EntityDraft | undefined;
  if (legacy) return legacy;
  const metadata = (cls as unknown as Record<symbol, MetadataObject | undefined>)[METADATA];
  return metadata ? (metadata[DRAFT] as EntityDraft | undefined) : undefined;
}

export function markEntity(cls: object): void {
  Reflect.defineMetadata(ENTITY, true, cls);
}

export function isDecoratedEntity(cls: EntityClass): boolean {
  return Reflect.getOwnMetadata(ENTITY, cls) === true;
}
