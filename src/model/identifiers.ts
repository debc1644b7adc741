/**
 * Names that reach a store (tables, collections, containers, columns) are restricted to a portable
 * identifier subset so every provider can quote them safely and none needs store-specific escaping.
 * 48 characters is the shortest table-name limit among the supported stores.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

/**
 * Names JavaScript gives a meaning on every object: a member '__proto__' would set the prototype of
 * the instance read back (some stores returned {}), and 'constructor' / 'prototype' shadow
 * what the class needs. They are refused as member, stored and collection names on every store.
 */
export const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export function isPortableIdentifier(name: unknown): name is string {
  return typeof name === 'string' && IDENTIFIER_PATTERN.test(name) && !RESERVED_NAMES.has(name);
}

export function isReservedName(name: unknown): boolean {
  return typeof name === 'string' && RESERVED_NAMES.has(name);
}

export const IDENTIFIER_HINT =
  'use letters, digits and underscores, starting with a letter or underscore, at most 48 characters, ' +
  'and none of __proto__, constructor, prototype';
