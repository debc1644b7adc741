import type { LifespanError } from '../errors';

/**
 * A deep-frozen copy of plain data (objects, arrays, primitives), in this realm: what the plan gate
 * (or a review) judged is what runs, whatever the caller does to its own plan meanwhile. A function
 * or symbol inside is not plain data: `refusal()` is thrown.
 */
export function frozenPlainCopy<T>(value: T, refusal: () => LifespanError): T {
  return deepFreeze(plainCopy(value, refusal)) as T;
}

function plainCopy(value: unknown, refusal: () => LifespanError): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') throw refusal();
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, refusal));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainCopy(item, refusal)]));
}

/** Freezes `value` and everything it holds (a frozen object is taken as frozen through). */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
