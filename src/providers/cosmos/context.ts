import type { Container, Database } from '@azure/cosmos';
import { StoreError } from '../../errors';
import type { EntityClass, EntityModel, Model } from '../../model/types';
import { entityLookup } from '../../runtime/entity-lookup';
import type { CosmosSchema, EntityLayout } from './compile';
import { clientNowSeconds, type ContainerTtl } from './item-expiry';
import { inspectContainer } from './inspect';
import { ItemCodec } from './codec';
import { STORE } from './semantics';
import { ServerClock } from './server-clock';

/** Everything a repository or unit of work needs about one entity. */
export interface EntityAccess {
  readonly entity: EntityModel;
  readonly codec: ItemCodec;
  readonly container: Container;
  /** The session's view of the server clock; item reads update it. */
  readonly clock: ServerClock;
}

/** One open session's view of the database: the compiled model and the live container settings. */
export class CosmosContext {
  private readonly ttlByContainer = new Map<string, Promise<ContainerTtl>>();
  readonly clock = new ServerClock();
  private readonly entityOf: (target: unknown) => EntityModel;

  constructor(
    readonly model: Model,
    readonly schema: CosmosSchema,
    readonly database: Database,
    readonly hideExpired: boolean,
  ) {
    this.entityOf = entityLookup(
      STORE,
      model.entities.map((e) => [e, e] as const),
    );
  }

  /**
   * The live DefaultTimeToLive of a container, read once per session (the service decides expiry by
   * it, which may differ from the model until ensureCollections()/apply() ran); apply() forgets it.
   */
  containerTtl(id: string): Promise<ContainerTtl> {
    let pending = this.ttlByContainer.get(id);
    if (!pending) {
      pending = inspectContainer(this.database, id, this.clock).then((live) => {
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

  /**
   * The server's clock in epoch seconds, for queries that must carry "now": estimated from a recent
   * response's Date header, or read from a fresh read of the container when none is recent.
   */
  async serverNowSeconds(containerId: string): Promise<number> {
    const estimate = this.clock.estimateSeconds();
    if (estimate !== undefined) return estimate;
    const live = await inspectContainer(this.database, containerId, this.clock);
    return live.serverNow ?? clientNowSeconds();
  }

  access(target: EntityClass): EntityAccess {
    const entity = this.entityOf(target);
    const layout = this.schema.layouts.find((l) => l.entity === entity.name) as EntityLayout;
    return {
      entity,
      codec: new ItemCodec(entity, layout),
      container: this.database.container(layout.container),
      clock: this.clock,
    };
  }
}
