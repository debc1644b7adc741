import type { Model } from '../../model/types';
import { booleanOption, driverOption } from '../../runtime/store-options';
import type { Store, StoreSession } from '../contract';
import { compileModel } from './compile';
import type { MongoDbLike } from './gateway';
import { STORE } from './semantics';
import { MongoSession } from './session';

export interface MongoStoreOptions {
  /** A driver `Db` the caller built (`new MongoClient(uri).db(name)`); lifespan never closes it. */
  readonly db: MongoDbLike;
  /**
   * Filter documents whose expiry has passed but that the TTL monitor (about every 60 s) has not
   * deleted yet out of every read. Off by default: MongoDB itself returns them.
   */
  readonly hideExpired?: boolean;
}

const HIDE_EXPIRED = {
  store: STORE,
  code: 'STORE_BAD_OPTION',
  hint: 'new MongoStore({ db, hideExpired: true })',
} as const;

const isFunction = (value: unknown) => typeof value === 'function';

/** `lifespan-orm/mongodb`: a model on a MongoDB database, with TTL indexes as the expiry mechanism. */
export class MongoStore implements Store {
  readonly name = STORE;
  private readonly db: MongoDbLike;
  private readonly hideExpired: boolean;

  constructor(options: MongoStoreOptions) {
    this.db = driverOption<MongoDbLike>(options, 'db', (d) => isFunction(d.command) && isFunction(d.collection), {
      store: STORE,
      code: 'STORE_BAD_OPTION',
      message: 'new MongoStore({ db }) needs a mongodb driver Db',
      hint: "const client = new MongoClient(uri); new MongoStore({ db: client.db('app') })",
    });
    this.hideExpired = booleanOption(options, 'hideExpired', false, HIDE_EXPIRED);
  }

  /** The database and hosts; credentials are never part of it. */
  describe(): string {
    const hosts = (this.db as { client?: { options?: { hosts?: readonly unknown[] } } }).client?.options?.hosts;
    const where = Array.isArray(hosts) && hosts.length > 0 ? ` on ${hosts.map(String).join(',')}` : '';
    return `mongodb database '${this.db.databaseName}'${where}${this.hideExpired ? ' (hideExpired)' : ''}`;
  }

  async open(model: Model): Promise<StoreSession> {
    return new MongoSession(this.db, compileModel(model), this.hideExpired, this.describe());
  }
}
