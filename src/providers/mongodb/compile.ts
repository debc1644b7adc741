import { ProblemList, type ModelProblem } from '../../errors';
import { fieldOf, type EntityModel, type FieldModel, type Model, type TtlAnchor } from '../../model/types';
import { checkExpireAfterSeconds } from './ttl-limits';
import { STORE } from './semantics';

/** The desired TTL index of a collection: single-field, ascending, MongoDB's default name. */
export interface TtlIndexSpec {
  readonly field: string;
  readonly name: string;
  readonly key: Readonly<Record<string, 1>>;
  readonly expireAfterSeconds: number;
}

/** The TTL index counts from a date member the documents carry (`expireAfterSeconds` = the TTL). */
export interface DateMemberTtl {
  readonly kind: 'date-member';
  readonly member: string;
  readonly field: string;
  readonly source: TtlAnchor['source'];
  readonly seconds: number;
  readonly index: TtlIndexSpec;
}

/**
 * Per-write TTLs: each document carries its absolute expiry instant in `field`, indexed with
 * `expireAfterSeconds: 0`. A declared default is stamped into that field at each write as
 * anchor + default (the anchor's value as written, or the server's $$NOW when there is no anchor).
 */
export interface ExpiryFieldTtl {
  readonly kind: 'expiry-field';
  readonly field: string;
  readonly defaultSeconds: number | null;
  readonly anchor: { readonly member: string; readonly field: string; readonly source: TtlAnchor['source'] } | null;
  readonly index: TtlIndexSpec;
}

export type MongoTtl = DateMemberTtl | ExpiryFieldTtl;

export interface KeyPart {
  readonly member: string;
  readonly field: string;
}

export interface CollectionMapping {
  readonly entity: EntityModel;
  readonly collection: string;
  /** One member: `_id` is its value; several: `_id` is a document of them, in this order. */
  readonly key: readonly KeyPart[];
  /** Non-key members, stored under their own names. */
  readonly fields: readonly FieldModel[];
  readonly ttl: MongoTtl | null;
}

export interface CompiledModel {
  readonly mappings: readonly CollectionMapping[];
}

/** Model → the collections, keys and TTL indexes MongoDB needs; one ModelError lists every problem. */
export function compileModel(model: Model): CompiledModel {
  const problems = new ProblemList();
  const mappings: CollectionMapping[] = [];
  for (const entity of model.entities) {
    const mapping = compileEntity(entity, problems);
    if (mapping) mappings.push(mapping);
  }
  const seen = new Map<string, string>();
  for (const m of mappings) {
    const other = seen.get(m.collection);
    if (other !== undefined) {
      problems.add({
        code: 'MONGO_SHARED_COLLECTION',
        entity: m.entity.name,
        store: STORE,
        message: `collection '${m.collection}' is also used by ${other}`,
        hint: 'give each entity its own collection (@Entity(name) or .toCollection(name))',
      });
    }
    seen.set(m.collection, m.entity.name);
  }
  problems.throwIfAny();
  return { mappings };
}

export function mappingFor(compiled: CompiledModel, entity: EntityModel): CollectionMapping | undefined {
  return compiled.mappings.find((m) => m.entity === entity);
}

function compileEntity(entity: EntityModel, problems: ProblemList): CollectionMapping | undefined {
  const before = problems.size;
  const report = (p: Omit<ModelProblem, 'entity' | 'store'>) =>
    problems.add({ entity: entity.name, store: STORE, ...p });
  const keyMembers = [...entity.key.partition, ...entity.key.clustering.map((c) => c.member)];
  const key = keyMembers.map((member) => ({ member, field: fieldOf(entity, member)?.storedName ?? member }));
  const fields = entity.fields.filter((f) => !keyMembers.includes(f.member));
  for (const f of fields) {
    if (f.storedName === '_id') {
      report({
        code: 'MONGO_RESERVED_FIELD',
        member: f.member,
        message: "is stored as '_id', which holds the entity's key on MongoDB",
        hint: 'give it another stored name with @Field({ name }), or make it the @Key',
      });
    }
  }
  const ttl = entity.ttl === null ? null : compileTtl(entity, keyMembers, report);
  if (problems.size > before) return undefined;
  return { entity, collection: entity.collection, key, fields, ttl };
}

type Report = (p: Omit<ModelProblem, 'entity' | 'store'>) => void;

function compileTtl(entity: EntityModel, keyMembers: readonly string[], report: Report): MongoTtl | null {
  const ttl = entity.ttl;
  if (ttl === null) return null;
  if (ttl.perWrite) {
    const anchor = ttl.seconds !== null && ttl.anchor !== null ? dateField(entity, ttl.anchor.member, report) : null;
    if (ttl.seconds !== null && ttl.anchor !== null && anchor === null) return null;
    return {
      kind: 'expiry-field',
      field: ttl.expiryField,
      defaultSeconds: ttl.seconds,
      anchor:
        anchor && ttl.anchor ? { member: anchor.member, field: anchor.storedName, source: ttl.anchor.source } : null,
      index: indexSpec(ttl.expiryField, 0, entity.collection),
    };
  }
  // @ExpiresAt: a TTL index with expireAfterSeconds: 0 on that member, so each document expires at its date.
  const instant = ttl.instantMember;
  const anchor: TtlAnchor | null = instant !== null ? { member: instant, source: 'explicit' } : ttl.anchor;
  const seconds = instant !== null ? 0 : ttl.seconds;
  if (seconds === null) return null;
  if (anchor === null) {
    report({
      code: 'MONGO_TTL_NO_DATE_MEMBER',
      message:
        `declares a TTL of ${ttl.declared} but has no date member to count it from: ` +
        'a MongoDB TTL index expires a document a number of seconds after the date stored in one of its fields',
      hint:
        'add a @CreatedAt() createdAt = new Date(0) member, or name the date member with ' +
        ".timeToLive(x => x.member, ...) or @TimeToLive({ ttl, member: 'member' }); " +
        '(or declare perWrite: true to stamp an expiry date on each write)',
    });
    return null;
  }
  if (keyMembers.includes(anchor.member)) {
    report({
      code: 'MONGO_TTL_ON_KEY',
      member: anchor.member,
      message: `the TTL counts from '${anchor.member}', a key member stored in _id, which cannot carry a TTL index`,
      hint: 'count the TTL from a non-key date member, e.g. @CreatedAt()',
    });
    return null;
  }
  const field = dateField(entity, anchor.member, report);
  if (!field) return null;
  return {
    kind: 'date-member',
    member: field.member,
    field: field.storedName,
    source: anchor.source,
    seconds,
    index: indexSpec(field.storedName, seconds, entity.collection),
  };
}

function dateField(entity: EntityModel, member: string, report: Report): FieldModel | null {
  const field = fieldOf(entity, member);
  if (!field || field.type !== 'date') {
    report({
      code: 'MONGO_TTL_MEMBER_NOT_DATE',
      member,
      message: `the TTL counts from '${member}', which is ${field ? `a ${field.type}` : 'not a stored field'}, not a Date`,
      hint: 'a MongoDB TTL index only expires documents whose indexed field holds a BSON date; point the TTL at a Date member',
    });
    return null;
  }
  return field;
}

function indexSpec(field: string, expireAfterSeconds: number, collection: string): TtlIndexSpec {
  return {
    field,
    name: `${field}_1`,
    key: { [field]: 1 },
    expireAfterSeconds: checkExpireAfterSeconds(expireAfterSeconds, collection),
  };
}
