import type { Database } from '@azure/cosmos';
import type { Model } from '../../model/types';
import { booleanOption, driverOption } from '../../runtime/store-options';
import type { Store, StoreSession } from '../contract';
import { compileCosmos } from './compile';
import { CosmosContext } from './context';
import { STORE } from './semantics';
import { CosmosSession } from './session';

export interface CosmosStoreOptions {
  /** An @azure/cosmos Database (SDK 4.9.x) you built; lifespan never closes its client. */
  readonly database: Database;
  /**
   * Also hide items past _ts + ttl from every read path (get, getMany, exists, find, count, ttl,
   * setTtl, delete's result). A real account already hides expired items from queries, so this is
   * off by default; it makes stores that do not expire (e.g. an emulator) read like one that does.
   * Both judge by the server clock: point reads by the response's Date header, queries by an
   * estimate from a recent Date header (within about a second).
   */
  readonly hideExpired?: boolean;
}

const BAD_OPTIONS = { store: STORE, code: 'STORE_BAD_OPTION' } as const;

/** `new CosmosStore({ database })`: the Cosmos DB store of lifespan. */
export class CosmosStore implements Store {
  readonly name = STORE;
  private readonly database: Database;
  private readonly hideExpired: boolean;

  constructor(options: CosmosStoreOptions) {
    const isDatabase = (d: Partial<Database>) => typeof d.container === 'function' && typeof d.id === 'string';
    this.database = driverOption<Database>(options, 'database', isDatabase, {
      ...BAD_OPTIONS,
      message: 'CosmosStore needs { database }: an @azure/cosmos Database',
      hint: "pass client.database('<id>') or the database from client.databases.createIfNotExists({ id })",
    });
    this.hideExpired = booleanOption(options, 'hideExpired', false, {
      ...BAD_OPTIONS,
      hint: 'new CosmosStore({ database, hideExpired: true })',
    });
  }

  describe(): string {
    return `Azure Cosmos DB database '${this.database.id}'${this.hideExpired ? ' (hideExpired)' : ''}`;
  }

  async open(model: Model): Promise<StoreSession> {
    const schema = compileCosmos(model);
    return new CosmosSession(new CosmosContext(model, schema, this.database, this.hideExpired), this.describe());
  }
}
