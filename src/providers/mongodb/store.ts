import { LifespanError } from '../../errors';
import { showValue } from '../../model/show-value';
import type { Model } from '../../model/types';
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

/** `lifespan/mongodb`: a model on a MongoDB database, with TTL indexes as the expiry mechanism. */
export class MongoStore implements Store {
  readonly name = STORE;
  private readonly db: MongoDbLike;
  private readonly hideExpired: boolean;

  constructor(options: MongoStoreOptions) {
    const db = (options as Partial<MongoStoreOptions> | undefined)?.db;
    if (!db || typeof db.command !== 'function' || typeof db.collection !== 'function') {
      throw new LifespanError('MONGO_NO_DB', 'new MongoStore({ db }) needs a mongodb driver Db', {
        store: STORE,
        hint: "const client = new MongoClient(uri); new MongoStore({ db: client.db('app') })",
      });
    }
    const hideExpired = options.hideExpired ?? false;
    if (typeof hideExpired !== 'boolean') {
      throw new LifespanError('MONGO_BAD_OPTION', `hideExpired must be true or false, got ${showValue(hideExpired)}`, {
        store: STORE,
        hint: 'new MongoStore({ db, hideExpired: true })',
      });
    }
    this.db = db;
    this.hideExpired = hideExpired;
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
