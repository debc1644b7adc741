import { checkValue } from '../../core/values';
import type { FieldModel } from '../../model/types';
import { keyValues } from '../../runtime/entity-values';
import type { KeyInput } from '../contract';
import type { KeyspaceMapping } from './compile';
import { STORE } from './semantics';

/**
 * Key layout: `<prefix><collection>:<member>[:<member>…]`, or with a partition key
 * `<prefix><collection>:{<partition members>}:<other members>` so a partition stays on one Redis
 * Cluster slot. Every part is escaped (`%`, `:`, `{`, `}` as %XX), so a part can hold any text and
 * the only braces in a key are lifespan's hash tag.
 */
export function escapePart(text: string): string {
  // Most parts hold none of the four: a test is cheaper than a replace with a callback (every write).
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(ESCAPED, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
const NEEDS_ESCAPE = /[%:{}]/;
const ESCAPED = /[%:{}]/g;

/** The key text of one key member value (checked against its type first). */
function partText(mapping: KeyspaceMapping, field: FieldModel, value: unknown): string {
  const checked = checkValue(field.type, false, value, {
    entity: mapping.entity.name,
    member: field.member,
    store: STORE,
    key: true,
  });
  const text =
    checked instanceof Date
      ? checked.toISOString()
      : checked instanceof Uint8Array
        ? Buffer.from(checked).toString('base64')
        : typeof checked === 'object'
          ? JSON.stringify(checked)
          : String(checked);
  return escapePart(text);
}

/**
 * The hash tag's text. An empty tag (`{}`) is no hash tag for Redis Cluster, which then hashes the
 * whole key: an empty partition value is written as `%00`, which no escaped text can be (`%` is `%25`).
 */
const EMPTY_TAG = '%00';
function tagText(mapping: KeyspaceMapping, values: Record<string, unknown>): string {
  return mapping.tagMembers.map((f) => partText(mapping, f, values[f.member])).join(':') || EMPTY_TAG;
}

/** `<prefix><collection>:` — every key of the entity starts so. */
export function collectionPrefix(prefix: string, mapping: KeyspaceMapping): string {
  return `${prefix}${escapePart(mapping.collection)}:`;
}

/** The Redis key of member values (the key members are read from them). */
export function keyFromValues(prefix: string, mapping: KeyspaceMapping, values: Record<string, unknown>): string {
  const members = mapping.restMembers;
  const only = members.length === 1 ? (members[0] as FieldModel) : undefined;
  // A key of one member (the usual case) without the array and join.
  const rest =
    only !== undefined
      ? partText(mapping, only, values[only.member])
      : members.map((f) => partText(mapping, f, values[f.member])).join(':');
  if (mapping.tagMembers.length === 0) return collectionPrefix(prefix, mapping) + rest;
  return `${collectionPrefix(prefix, mapping)}{${tagText(mapping, values)}}:${rest}`;
}

/** The Redis key of a key argument (a single value or an object of every key member). */
export function keyOf(prefix: string, mapping: KeyspaceMapping, key: KeyInput<unknown>): string {
  return keyFromValues(prefix, mapping, keyValues(mapping.entity, key as KeyInput<Record<string, unknown>>, STORE));
}

/** Escapes SCAN MATCH glob characters, so a literal prefix matches only itself. */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * The literal start of every key a filter can hit: the entity's keys, narrowed to one hash tag
 * when the filter gives every partition member.
 */
export function keyHead(prefix: string, mapping: KeyspaceMapping, where: Record<string, unknown>): string {
  const head = collectionPrefix(prefix, mapping);
  const tag = mapping.tagMembers;
  if (tag.length > 0 && tag.every((f) => where[f.member] !== undefined && where[f.member] !== null)) {
    return `${head}{${tagText(mapping, where)}}:`;
  }
  return head;
}

/** True when keyHead() is narrowed to one hash tag (so to one cluster slot). */
export function headHasTag(head: string): boolean {
  return head.endsWith('}:');
}

/** The SCAN MATCH pattern of keyHead() (the scan still walks the whole keyspace). */
export function scanPattern(prefix: string, mapping: KeyspaceMapping, where: Record<string, unknown>): string {
  return `${globLiteral(keyHead(prefix, mapping, where))}*`;
}

/** How explain() and docs show the key of an entity. */
export function keyLayout(prefix: string, mapping: KeyspaceMapping): string {
  const names = (fields: readonly FieldModel[]) => fields.map((f) => `<${f.member}>`).join(':');
  const head = `${prefix}${escapePart(mapping.collection)}:`;
  if (mapping.tagMembers.length === 0) return `${head}${names(mapping.restMembers)}`;
  return (
    `${head}{${names(mapping.tagMembers)}}:${names(mapping.restMembers)} ` +
    `(hash tag {${mapping.tagMembers.map((f) => f.member).join(', ')}}: a partition stays on one cluster slot)`
  );
}
