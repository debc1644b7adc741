import type { Container, Database } from '@azure/cosmos';
import { LifespanError, StoreError } from '../../errors';
import { findEntity, type EntityClass, type EntityModel, type Model } from '../../model/types';
import type { CosmosSchema, EntityLayout } from './compile';
import type { ContainerTtl } from './expiry';
import { inspectContainer } from './inspect';
import { ItemCodec } from './item-codec';
import { STORE } from './semantics';

/** Everything a repository or unit of work needs about one entity. */
export interface EntityAccess {
  readonly entity: EntityModel;
  readonly codec: ItemCodec;
  readonly container: Container;
}

/** One open session's view of the database: the compiled model and the live container settings. */
export class CosmosContext {
  private readonly ttlByContainer = new Map<string, Promise<ContainerTtl>>();

  constructor(
    readonly model: Model,
    readonly schema: CosmosSchema,
    readonly database: Database,
    readonly hideExpired: boolean,
  ) {}

  /**
   * The live DefaultTimeToLive of a container, read once per session (the service decides expiry by
   * it, which may differ from the model until ensureCollections()/apply() ran); apply() forgets it.
   */
  containerTtl(id: string): Promise<ContainerTtl> {
    let pending = this.ttlByContainer.get(id);
    if (!pending) {
      pending = inspectContainer(this.database, id).then((live) => {
        if (live.exists) return live.defaultTtl;
        throw new StoreError('COSMOS_CONTAINER_MISSING', `container '${id}' does not exist`, {
          store: STORE,
          hint: 'run ensureCollections() (or plan() and apply()) first',
        });
      });
      pending.catch(() => this.ttlByContainer.delete(id));
      this.ttlByContainer.set(id, pending);
    }
    return pending;
  }

  forgetContainerSettings(): void {
    this.ttlByContainer.clear();
  }

  access(target: EntityClass): EntityAccess {
    const entity = findEntity(this.model, target);
    if (!entity) {
      throw new LifespanError('UNKNOWN_ENTITY', `${target.name} is not an entity of this model`, {
        entity: target.name,
        store: STORE,
        hint: 'add it with new ModelBuilder().entity(...) before build()',
      });
    }
    const layout = this.schema.layouts.find((l) => l.entity === entity.name) as EntityLayout;
    return {
      entity,
      codec: new ItemCodec(entity, layout),
      container: this.database.container(layout.container),
    };
  }
}
