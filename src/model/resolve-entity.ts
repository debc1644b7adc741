import { ProblemList, type ModelProblem } from '../errors';
import type { EntityDraft, FieldDraft, KeyDraft, TtlDraft } from './draft';
import { parseDuration, showValue } from './duration';
import { fieldTypeFromDesignType, fieldTypeFromValue, initialValues, isFieldType, KEY_FIELD_TYPES } from './field-type';
import { resolveVersion } from './resolve-version';
import { resolveExpiresAt } from './resolve-expires-at';
import { IDENTIFIER_HINT, isPortableIdentifier, isReservedName } from './identifiers';
import {
  DEFAULT_EXPIRY_FIELD,
  type EntityClass,
  type EntityModel,
  type FieldModel,
  type FieldType,
  type ClusteringMember,
  type KeyModel,
  type TtlAnchor,
  type TtlModel,
} from './types';

/** Turns one merged draft into a validated EntityModel, adding every problem it finds. */
export function resolveEntity(target: EntityClass, draft: EntityDraft, problems: ProblemList): EntityModel {
  const entity = target.name;
  const report = (p: Omit<ModelProblem, 'entity'>) => problems.add({ entity, ...p });
  const anchorCandidate = draft.ttl.length === 1 ? draft.ttl[0]?.anchor : undefined;

  const fields: FieldModel[] = [];
  const initial = initialValues(target);
  const keyMembers = new Set([...(draft.key?.partition ?? []), ...(draft.key?.clustering ?? []).map((c) => c.member)]);
  for (const [member, field] of draft.fields) {
    const place = { isTtlAnchor: member === anchorCandidate, isKey: keyMembers.has(member) };
    const resolved = resolveField(member, field, initial[member], place, report);
    if (resolved) fields.push(resolved);
  }
  const collection = draft.collection ?? entity;
  if (!isPortableIdentifier(collection)) {
    report({
      code: 'MODEL_BAD_NAME',
      message: `collection name ${showValue(collection)} is not allowed`,
      hint: IDENTIFIER_HINT,
    });
  }
  checkStoredNames(fields, report);
  const key = resolveKey(draft, fields, report);
  checkTimestampMember(draft.createdAt, '@CreatedAt', fields, report);
  checkTimestampMember(draft.updatedAt, '@UpdatedAt', fields, report);
  const ttl = draft.expiresAt?.length
    ? resolveExpiresAt(draft, fields, problems, entity)
    : resolveTtl(draft, fields, problems, entity);
  const version = resolveVersion(draft, fields, key, report);

  return Object.freeze({
    name: entity,
    collection,
    target,
    fields: Object.freeze(fields.map((f) => Object.freeze(f))),
    key,
    createdAt: draft.createdAt ?? null,
    updatedAt: draft.updatedAt ?? null,
    ttl,
    version,
  });
}

type Report = (p: Omit<ModelProblem, 'entity'>) => void;

/** What to write for a member without a type, in the form its declaration takes. */
function noTypeHint(isKey: boolean, startsNull: boolean): string {
  if (isKey) {
    return "give the key its type, e.g. @Key({ type: 'string' }) (or @PartitionKey({ type: 'string' }) / @ClusteringKey('asc', { type: 'string' })), or .key(x => x.member, { type: 'string' })";
  }
  if (startsNull) {
    return "a member like `string | null = null` needs its type and nullable: true, e.g. @Field({ type: 'string', nullable: true }) or .field(x => x.member, { type: 'string', nullable: true })";
  }
  return "give it explicitly, e.g. @Field({ type: 'string' }) or .field(x => x.member, { type: 'json' }) (add nullable: true for a member that may be null)";
}

function resolveField(
  member: string,
  field: FieldDraft,
  initialValue: unknown,
  place: { readonly isTtlAnchor: boolean; readonly isKey: boolean },
  report: Report,
): FieldModel | undefined {
  const { isTtlAnchor } = place;
  if (isReservedName(member)) {
    report({
      code: 'MODEL_BAD_NAME',
      member,
      message: `member name ${showValue(member)} is a name JavaScript reserves on every object`,
      hint: 'rename the member (a stored name with { name } does not help: the instance would still use it)',
    });
    return undefined;
  }
  let type: FieldType | undefined;
  if (field.type !== undefined) {
    if (!isFieldType(field.type)) {
      report({
        code: 'MODEL_UNKNOWN_TYPE',
        member,
        message: `type ${showValue(field.type)} is not a field type`,
        hint: `use one of: string, number, integer, bigint, boolean, date, uuid, json, binary, counter`,
      });
      return undefined;
    }
    type = field.type;
  } else {
    type =
      fieldTypeFromDesignType(field.designType) ??
      fieldTypeFromValue(initialValue) ??
      (field.designType === undefined && isTtlAnchor ? 'date' : undefined);
  }
  if (type === undefined) {
    const why =
      field.designType === undefined
        ? 'has no type: no design:type metadata (TC39 standard decorators, esbuild and Vite emit none) and no initial value to infer it from'
        : 'has a type that cannot be stored as is (a union, an interface or a class)';
    report({
      code: 'MODEL_NO_TYPE',
      member,
      message: `member ${why}`,
      hint: noTypeHint(place.isKey, initialValue === null),
    });
    return undefined;
  }
  const storedName = field.storedName ?? member;
  if (typeof storedName !== 'string' || !isPortableIdentifier(storedName)) {
    report({
      code: 'MODEL_BAD_NAME',
      member,
      message: `stored name ${showValue(storedName)} is not allowed`,
      hint: IDENTIFIER_HINT,
    });
    return undefined;
  }
  if (field.nullable !== undefined && typeof field.nullable !== 'boolean') {
    report({
      code: 'MODEL_BAD_OPTION',
      member,
      message: `nullable must be true or false, not ${showValue(field.nullable)}`,
      hint: 'write { nullable: true }',
    });
    return undefined;
  }
  return { member, storedName, type, nullable: field.nullable ?? false };
}

function checkStoredNames(fields: FieldModel[], report: Report): void {
  const seen = new Map<string, string>();
  for (const f of fields) {
    const other = seen.get(f.storedName.toLowerCase());
    if (other !== undefined) {
      report({
        code: 'MODEL_DUPLICATE_NAME',
        member: f.member,
        message: `stored name '${f.storedName}' is also used by ${other}`,
        hint: 'give one of them another name with { name }',
      });
    }
    seen.set(f.storedName.toLowerCase(), f.member);
  }
}

/**
 * @Key is identity, @PartitionKey is distribution: without a @PartitionKey the @Key members are the
 * partition key (as before); with one, the @Key members that are not partition members join the
 * clustering key in declaration order: `@Key() id` + `@PartitionKey() userId` is partition userId,
 * clustering id, which each store maps to its own key layout (docs/declaring-ttl.md, Keys).
 */
function keyShape(key: KeyDraft | undefined): {
  partition: string[];
  clustering: Array<{ member: string; order: unknown }>;
} {
  if (!key) return { partition: [], clustering: [] };
  const explicit = [...new Set(key.partition)];
  if (explicit.length === 0) {
    return { partition: [...new Set(key.identity)], clustering: key.clustering.filter((c) => !c.identity) };
  }
  const clustering: Array<{ member: string; order: unknown }> = [];
  for (const c of key.clustering) {
    if (explicit.includes(c.member)) continue;
    const seen = clustering.findIndex((o) => o.member === c.member);
    if (seen === -1) clustering.push({ member: c.member, order: c.order });
    else if (!c.identity) clustering[seen] = { member: c.member, order: c.order };
  }
  return { partition: explicit, clustering };
}

function resolveKey(draft: EntityDraft, fields: FieldModel[], report: Report): KeyModel {
  const { partition, clustering } = keyShape(draft.key);
  if (partition.length === 0) {
    report({
      code: 'MODEL_NO_KEY',
      message: clustering.length > 0 ? 'has clustering keys but no partition key' : 'has no key',
      hint: 'mark the identifying member with @Key() or call .key(x => x.id)',
    });
  }
  for (const member of [...partition, ...clustering.map((c) => c.member)]) {
    const field = fields.find((f) => f.member === member);
    if (field && !KEY_FIELD_TYPES.includes(field.type)) {
      report({
        code: 'MODEL_BAD_KEY_TYPE',
        member,
        message: `a key member cannot be of type ${field.type}`,
        hint: `use one of: ${KEY_FIELD_TYPES.join(', ')}`,
      });
    }
    if (field?.nullable) {
      report({
        code: 'MODEL_NULLABLE_KEY',
        member,
        message: 'a key member cannot be nullable',
        hint: 'remove nullable: true',
      });
    }
  }
  const ordered: ClusteringMember[] = [];
  for (const c of clustering) {
    if (c.order !== 'asc' && c.order !== 'desc') {
      report({
        code: 'MODEL_BAD_OPTION',
        member: c.member,
        message: `clustering order ${showValue(c.order)} is not 'asc' or 'desc'`,
        hint: "write @ClusteringKey('desc') or .clusteringKey(x => x.member, 'desc')",
      });
      continue;
    }
    ordered.push(Object.freeze({ member: c.member, order: c.order }));
  }
  return Object.freeze({ partition: Object.freeze(partition), clustering: Object.freeze(ordered) });
}

function checkTimestampMember(member: string | undefined, role: string, fields: FieldModel[], report: Report): void {
  if (member === undefined) return;
  const field = fields.find((f) => f.member === member);
  if (field && field.type !== 'date') {
    report({
      code: 'MODEL_TIMESTAMP_NOT_DATE',
      member,
      message: `${role} must be a Date, not ${field.type}`,
      hint: 'declare it as Date',
    });
  }
}

function resolveTtl(draft: EntityDraft, fields: FieldModel[], problems: ProblemList, entity: string): TtlModel | null {
  if (draft.ttl.length === 0) return null;
  if (draft.ttl.length > 1) {
    problems.add({
      entity,
      code: 'MODEL_TTL_DECLARED_TWICE',
      message: `has ${draft.ttl.length} TTL declarations (${draft.ttl.map((t) => t.origin).join(', ')})`,
      hint: 'keep one: on the class, or on the Date member it counts from',
    });
    return null;
  }
  const declaration = draft.ttl[0] as TtlDraft;
  if (declaration.optionProblems.length > 0) {
    for (const message of declaration.optionProblems) {
      problems.add({ entity, code: 'MODEL_TTL_OPTIONS', message: `${declaration.origin}: ${message}` });
    }
    return null;
  }
  let seconds: number | null = null;
  if (declaration.hasValue) {
    const parsed = problems.collect({ entity }, () => parseDuration(declaration.value));
    if (parsed === undefined) return null;
    seconds = parsed;
  } else if (!declaration.perWrite) {
    problems.add({
      entity,
      code: 'MODEL_TTL_EMPTY',
      message: `${declaration.origin} declares neither a TTL nor perWrite`,
      hint: "give a duration ({ ttl: '1h' }) or { perWrite: true }",
    });
    return null;
  }
  const anchor = resolveAnchor(declaration, draft, fields, problems, entity);
  const expiryField = declaration.expiryField ?? DEFAULT_EXPIRY_FIELD;
  if (declaration.perWrite && fields.some((f) => f.member === expiryField || f.storedName === expiryField)) {
    problems.add({
      entity,
      member: expiryField,
      code: 'MODEL_EXPIRY_FIELD_TAKEN',
      message: `the per-write expiry field '${expiryField}' is also a member`,
      hint: "name another with { expiryField: '...' }",
    });
  }
  if (!isPortableIdentifier(expiryField)) {
    problems.add({
      entity,
      code: 'MODEL_BAD_NAME',
      message: `expiry field ${showValue(expiryField)} is not allowed`,
      hint: IDENTIFIER_HINT,
    });
  }
  return Object.freeze({
    seconds,
    declared: declaration.hasValue ? showValue(declaration.value) : 'per-write only',
    anchor,
    perWrite: declaration.perWrite,
    expiryField,
    instantMember: null,
  });
}

function resolveAnchor(
  declaration: TtlDraft,
  draft: EntityDraft,
  fields: FieldModel[],
  problems: ProblemList,
  entity: string,
): TtlAnchor | null {
  if (declaration.anchor !== undefined) {
    const field = fields.find((f) => f.member === declaration.anchor);
    if (!field) {
      problems.add({
        entity,
        member: declaration.anchor,
        code: 'MODEL_TTL_UNKNOWN_MEMBER',
        message: `the TTL counts from '${declaration.anchor}', which is not a field`,
        hint: 'decorate it with @Field({ type: "date" }) or name another member',
      });
      return null;
    }
    if (field.type !== 'date') {
      problems.add({
        entity,
        member: field.member,
        code: 'MODEL_TTL_MEMBER_NOT_DATE',
        message: `the TTL counts from '${field.member}', which is ${field.type}, not a Date`,
        hint: 'point the TTL at a Date member',
      });
      return null;
    }
    return { member: field.member, source: 'explicit' };
  }
  if (draft.createdAt !== undefined) return { member: draft.createdAt, source: 'createdAt' };
  if (draft.updatedAt !== undefined) return { member: draft.updatedAt, source: 'updatedAt' };
  return null;
}
