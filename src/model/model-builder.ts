import { ModelError, ProblemList } from '../errors';
import { decoratedDraft, isDecoratedEntity } from './class-metadata';
import { cloneDraft, emptyDraft } from './draft';
import { EntityConfigurator } from './entity-configurator';
import { resolveEntity } from './resolve-entity';
import type { EntityClass, EntityModel, Model } from './types';

type Configure<T> = (entity: EntityConfigurator<T>) => unknown;

interface Registration {
  readonly target: EntityClass;
  readonly configure: Array<Configure<unknown>>;
}

/**
 * Collects entity classes (decorated, fluent, or both) and builds a frozen Model.
 * Only classes given here are in the model: there is no global registry.
 */
export class ModelBuilder {
  // A Map keeps registration order and makes a repeated .entity(Cls) a constant-time lookup.
  private readonly registrations = new Map<EntityClass, Registration>();

  entity<T>(target: EntityClass<T>, configure?: Configure<T>): this {
    let registration = this.registrations.get(target);
    if (!registration) {
      registration = { target, configure: [] };
      this.registrations.set(target, registration);
    }
    if (configure) registration.configure.push(configure as Configure<unknown>);
    return this;
  }

  /** Validates everything and returns the model, or throws one ModelError listing every problem. */
  build(): Model {
    const problems = new ProblemList();
    const entities: EntityModel[] = [];
    for (const { target, configure } of this.registrations.values()) {
      const decorated = decoratedDraft(target);
      if (!decorated && configure.length === 0 && !isDecoratedEntity(target)) {
        problems.add({
          entity: target.name,
          code: 'MODEL_NOT_AN_ENTITY',
          message: 'has neither decorators nor fluent configuration',
          hint: 'decorate it with @Entity() and @Key(), or pass a configure function to .entity()',
        });
        continue;
      }
      const draft = decorated ? cloneDraft(decorated) : emptyDraft();
      const configurator = new EntityConfigurator<unknown>(target.name, draft);
      for (const step of configure) problems.collect({ entity: target.name }, () => step(configurator));
      entities.push(resolveEntity(target, draft, problems));
    }
    checkDuplicateNames(entities, problems);
    problems.throwIfAny();
    return Object.freeze({ entities: Object.freeze(entities) });
  }
}

function checkDuplicateNames(entities: EntityModel[], problems: ProblemList): void {
  const seen = new Set<string>();
  for (const e of entities) {
    if (seen.has(e.name)) {
      problems.add({
        entity: e.name,
        code: 'MODEL_DUPLICATE_ENTITY',
        message: 'two different classes share this name',
        hint: 'rename one of the classes',
      });
    }
    seen.add(e.name);
  }
}

export { ModelError };
