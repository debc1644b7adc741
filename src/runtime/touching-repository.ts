import type { PerWriteTtl } from '../model/per-write-ttl';
import type { EntityModel } from '../model/types';
import type { FindOptions, KeyInput, Repository, WriteOptions } from '../providers/contract';
import { readOptions, touchEach, type NativeTouch, type ReadOptions } from './touch';

/**
 * The repository a store context hands out: the store's own, with `get`/`getMany` taking read
 * options (sliding expiry on read). The options are checked the same way on every store; a store
 * with its own touch (NativeTouch: Redis's script, Cassandra's refusal) runs it, any other the
 * portable one (touchEach: the read, then the store's exact extend for what is under the threshold).
 */
export class TouchingRepository<T> implements Repository<T> {
  constructor(
    private readonly inner: Repository<T> & Partial<NativeTouch<KeyInput<T>, T>>,
    private readonly entity: EntityModel,
    private readonly store: string,
  ) {}

  insert(entity: T, options?: WriteOptions): Promise<void> {
    return this.inner.insert(entity, options);
  }

  upsert(entity: T, options?: WriteOptions): Promise<void> {
    return this.inner.upsert(entity, options);
  }

  async get(key: KeyInput<T>, options?: ReadOptions): Promise<T | undefined> {
    const touch = readOptions(options, 'get()', this.entity, this.store);
    if (touch === null) return this.inner.get(key);
    if (this.inner.getTouched) return (await this.inner.getTouched([key], touch))[0];
    const found = await this.inner.get(key);
    if (found !== undefined) await touchEach(this.inner, [key], touch);
    return found;
  }

  async getMany(keys: readonly KeyInput<T>[], options?: ReadOptions): Promise<T[]> {
    const touch = readOptions(options, 'getMany()', this.entity, this.store);
    if (touch === null) return this.inner.getMany(keys);
    if (this.inner.getTouched) {
      const found = await this.inner.getTouched(keys, touch);
      return found.filter((record): record is T => record !== undefined);
    }
    const found = await this.inner.getMany(keys);
    if (found.length > 0) await touchEach(this.inner, keys, touch);
    return found;
  }

  find(where?: Partial<T>, options?: FindOptions): Promise<T[]> {
    return this.inner.find(where, options);
  }

  exists(key: KeyInput<T>): Promise<boolean> {
    return this.inner.exists(key);
  }

  count(where?: Partial<T>): Promise<number> {
    return this.inner.count(where);
  }

  delete(key: KeyInput<T>): Promise<boolean> {
    return this.inner.delete(key);
  }

  ttl(key: KeyInput<T>): Promise<number | null | undefined> {
    return this.inner.ttl(key);
  }

  setTtl(key: KeyInput<T>, ttl: PerWriteTtl): Promise<boolean> {
    return this.inner.setTtl(key, ttl);
  }
}
