import { FIELD_TYPES, type FieldType } from './types';
import { keepClassShape } from '../shape-anchors';

/** Maps a TypeScript `design:type` constructor to a field type; undefined when it is ambiguous. */
export function fieldTypeFromDesignType(designType: unknown): FieldType | undefined {
  switch (designType) {
    case String:
      return 'string';
    case Number:
      return 'number';
    case Boolean:
      return 'boolean';
    case Date:
      return 'date';
    case BigInt:
      return 'bigint';
    case Array:
      return 'json';
    case Buffer:
    case Uint8Array:
      return 'binary';
    default:
      // `Object` is what TypeScript emits for unions (`string | null`) and interfaces: ambiguous.
      return undefined;
  }
}

export function isFieldType(value: unknown): value is FieldType {
  return typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);
}

export const KEY_FIELD_TYPES: readonly FieldType[] = ['string', 'number', 'integer', 'bigint', 'uuid', 'date'];

/**
 * The type of a member's initial value (`id = ''`, `createdAt = new Date(0)`): TypeScript emits
 * `design:type` Object for members without a type annotation, so the initialiser is the next clue.
 */
export function fieldTypeFromValue(value: unknown): FieldType | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'bigint') return 'bigint';
  if (value instanceof Date) return 'date';
  if (value instanceof Uint8Array) return 'binary';
  if (Array.isArray(value)) return 'json';
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype) return 'json';
  return undefined;
}

/** Initial member values of a class constructed without arguments; empty when that throws. */
export function initialValues(target: new () => unknown): Record<string, unknown> {
  let instance: unknown;
  try {
    instance = new target();
  } catch {
    return {};
  }
  // The write path's code is compiled for the map instances of the class have (shape-anchors.ts).
  keepClassShape(target, instance);
  return { ...(instance as Record<string, unknown>) };
}
