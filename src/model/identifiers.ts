/**
 * Names that reach a store (tables, collections, containers, columns) are restricted to a portable
 * identifier subset so every provider can quote them safely and none needs store-specific escaping.
 * 48 characters is the shortest table-name limit among the supported stores.
 */
export const IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,47}$/;

export function isPortableIdentifier(name: string): boolean {
  return IDENTIFIER_PATTERN.test(name);
}

export const IDENTIFIER_HINT =
  'use letters, digits and underscores, starting with a letter or underscore, at most 48 characters';
