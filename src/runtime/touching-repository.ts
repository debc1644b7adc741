import type { EntityModel } from '../model/types';
import type { KeyInput, ReadOptions, Repository } from '../providers/contract';
import { readOptions, touchEach, type CheckedTouch, type NativeTouch } from './touch';

type Touchable<T> = Repository<T> & Partial<NativeTouch<KeyInput<T>, T>>;

/**
 * The repository a store context hands out: the store's own, with `get`/`getMany` taking read
 * options (sliding expiry on read). The options are checked the same way on every store; a store
 * with its own touch (NativeTouch: an atomic script, or a typed refusal) runs it, any other the
 * portable one (touchEach: the read, then the store's exact extend for what is under the threshold).
 * A proxy, so every other member of the store's repository (its own extras included) stays as it is.
 */
export function withReadTouch<T>(inner: Touchable<T>, entity: EntityModel, store: string): Repository<T> {
  const touchedGet = async (key: KeyInput<T>, touch: CheckedTouch): Promise<T | undefined> => {
    if (inner.getTouched) return (await inner.getTouched([key], touch))[0];
    const found = await inner.get(key);
    if (found !== undefined) await touchEach(inner, [key], touch);
    return found;
  };
  // Not an async function: a plain get hands back the store's own promise. An async function
  // returning it would wrap it in a second promise, resolved two microtask turns later (the
  // thenable job of ECMA-262's promise resolve functions), on every get of every store.
  const get = (key: KeyInput<T>, options?: ReadOptions): Promise<T | undefined> => {
    try {
      const touch = readOptions(options, 'get()', entity, store);
      return touch === null ? inner.get(key) : touchedGet(key, touch);
    } catch (error) {
      // A bad option (or a store's synchronous throw) is a rejection, as from an async function.
      return Promise.reject(error);
    }
  };
  const touchedGetMany = async (keys: readonly KeyInput<T>[], touch: CheckedTouch): Promise<T[]> => {
    if (inner.getTouched) {
      const found = await inner.getTouched(keys, touch);
      return found.filter((record): record is T => record !== undefined);
    }
    const found = await inner.getMany(keys);
    if (found.length > 0) await touchEach(inner, keys, touch);
    return found;
  };
  const getMany = (keys: readonly KeyInput<T>[], options?: ReadOptions): Promise<T[]> => {
    try {
      const touch = readOptions(options, 'getMany()', entity, store);
      return touch === null ? inner.getMany(keys) : touchedGetMany(keys, touch);
    } catch (error) {
      // A bad option (or a store's synchronous throw) is a rejection, as from an async function.
      return Promise.reject(error);
    }
  };
  // One bound function per method, made at its first read: binding at every read made each
  // repo.insert(…) allocate a function (a write path's cost, measured in docs/performance.md).
  const bound = new Map<PropertyKey, { readonly of: unknown; readonly fn: unknown }>();
  return new Proxy(inner, {
    get(target, property) {
      if (property === 'get') return get;
      if (property === 'getMany') return getMany;
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      const known = bound.get(property);
      if (known !== undefined && known.of === value) return known.fn;
      const fn = (value as (...args: unknown[]) => unknown).bind(target);
      bound.set(property, { of: value, fn });
      return fn;
    },
  });
}
