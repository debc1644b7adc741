/**
 * The index table of one in-memory collection, with MongoDB's documented rules for TTL indexes:
 * what createIndexes and collMod accept, and the server error (code and code name) for what they
 * refuse. Sources (shared/reference/store-ttl.md §1.2, §1.6, §1.7):
 * - createIndexes: expireAfterSeconds must be numeric, not NaN, 0..2147483647, on a single field
 *   (67 CannotCreateIndex, server index_key_validate.cpp); not on _id (197
 *   InvalidIndexSpecificationOption, "The field 'expireAfterSeconds' is not valid for an _id index
 *   specification"); against an existing index: same name + key, other options → 85
 *   IndexOptionsConflict; other name, same key → 85; same name, other key → 86 IndexKeySpecsConflict;
 *   identical → a no-op.
 * - unique indexes: a write whose key fields equal another document's fails with 11000 DuplicateKey,
 *   the reply naming the index and its keyPattern (docs: "Unique Indexes", missing field = null).
 * - collMod index: a string expireAfterSeconds → 14 TypeMismatch; negative, compound or _id → 72
 *   InvalidOptions (mongodb/mongo jstests/core/ddl/collmod_convert_to_ttl.js); no such index → 27
 *   IndexNotFound; the reply carries expireAfterSeconds_old (when there was one) and _new.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Doc } from '../recording-db';
import { serverError } from '../recording-db';

export interface IndexSpec {
  readonly v: 2;
  readonly key: Doc;
  readonly name: string;
  readonly expireAfterSeconds?: number;
  readonly [option: string]: unknown;
}

const INT32_MAX = 2147483647;
const ID_INDEX: IndexSpec = { v: 2, key: { _id: 1 }, name: '_id_' };

export class IndexCatalog {
  private readonly specs: IndexSpec[] = [];

  constructor(private readonly namespace: string) {}

  /** What listIndexes returns: the _id index first, then the others in creation order. */
  list(): IndexSpec[] {
    return [{ ...ID_INDEX }, ...this.specs.map((s) => ({ ...s }))];
  }

  /** The single-field TTL indexes (what the TTL monitor walks). */
  ttlIndexes(): { field: string; expireAfterSeconds: number }[] {
    return this.specs.flatMap((s) => {
      const fields = Object.keys(s.key);
      return typeof s.expireAfterSeconds === 'number' && fields.length === 1
        ? [{ field: fields[0] as string, expireAfterSeconds: s.expireAfterSeconds }]
        : [];
    });
  }

  /** createIndexes for one spec: true when it was created, false when an identical one exists. */
  create(requested: Doc): boolean {
    const key = requested['key'];
    const name = requested['name'];
    if (typeof key !== 'object' || key === null || Object.keys(key).length === 0 || typeof name !== 'string') {
      throw serverError(67, 'CannotCreateIndex', `bad index spec ${JSON.stringify(requested)}`);
    }
    if ('partialFilterExpression' in requested) {
      // The fake's TTL monitor and queries do not model partial indexes: refuse rather than ignore the filter.
      throw new Error(`the in-memory fake does not model partialFilterExpression (index ${String(name)})`);
    }
    const spec = { v: 2, ...requested } as IndexSpec;
    if ('expireAfterSeconds' in requested) checkTtlSpec(spec);
    const sameName = this.specs.find((s) => s.name === spec.name) ?? (spec.name === '_id_' ? ID_INDEX : undefined);
    if (sameName) {
      if (!isDeepStrictEqual(sameName.key, spec.key)) {
        throw serverError(
          86,
          'IndexKeySpecsConflict',
          `An existing index has the same name as the requested index. Requested index: ${show(spec)}, existing index: ${show(sameName)}`,
        );
      }
      if (!isDeepStrictEqual(options(sameName), options(spec))) {
        throw serverError(
          85,
          'IndexOptionsConflict',
          `An equivalent index already exists with the same name but different options. Requested index: ${show(spec)}, existing index: ${show(sameName)}`,
        );
      }
      return false;
    }
    const sameKey = [ID_INDEX, ...this.specs].find((s) => isDeepStrictEqual(s.key, spec.key));
    if (sameKey) {
      throw serverError(
        85,
        'IndexOptionsConflict',
        isDeepStrictEqual(options(sameKey), options(spec))
          ? `Index already exists with a different name: ${sameKey.name}`
          : `An equivalent index already exists with a different name and options. Requested index: ${show(spec)}, existing index: ${show(sameKey)}`,
      );
    }
    this.specs.push(spec);
    return true;
  }

  /** collMod { index: { keyPattern | name, expireAfterSeconds } }: the server's reply. */
  modify(change: Doc): Doc {
    const target = this.specs.findIndex((s) =>
      'name' in change ? s.name === change['name'] : isDeepStrictEqual(s.key, change['keyPattern']),
    );
    const isId = isDeepStrictEqual(change['keyPattern'], { _id: 1 }) || change['name'] === '_id_';
    const seconds = change['expireAfterSeconds'];
    if (typeof seconds !== 'number') {
      throw serverError(14, 'TypeMismatch', `expireAfterSeconds must be a number, got ${typeof seconds}`);
    }
    if (Number.isNaN(seconds) || seconds < 0 || seconds > INT32_MAX) {
      throw serverError(72, 'InvalidOptions', `TTL index 'expireAfterSeconds' option ${seconds} is out of range`);
    }
    if (isId) throw serverError(72, 'InvalidOptions', 'the _id index cannot be a TTL index');
    const existing = this.specs[target];
    if (!existing) {
      const what = 'name' in change ? String(change['name']) : show(change['keyPattern']);
      throw serverError(27, 'IndexNotFound', `cannot find index ${what} for ns ${this.namespace}`);
    }
    if (Object.keys(existing.key).length !== 1) {
      throw serverError(
        72,
        'InvalidOptions',
        'TTL indexes are single-field indexes, compound indexes do not support TTL',
      );
    }
    this.specs[target] = { ...existing, expireAfterSeconds: seconds };
    return {
      ...(existing.expireAfterSeconds === undefined ? {} : { expireAfterSeconds_old: existing.expireAfterSeconds }),
      expireAfterSeconds_new: seconds,
      ok: 1,
    };
  }

  /**
   * The unique index (not _id, which the collection checks itself) that `candidate` would break
   * among `others`: equal values of its key fields, a missing field counting as null (a sparse
   * index skips documents that have none of its fields).
   */
  uniqueClash(others: readonly Doc[], candidate: Doc): IndexSpec | undefined {
    return this.specs.find((spec) => {
      if (spec['unique'] !== true) return false;
      const fields = Object.keys(spec.key);
      const skipped = (doc: Doc) => spec['sparse'] === true && fields.every((f) => !(f in doc));
      const valuesOf = (doc: Doc) => fields.map((f) => doc[f] ?? null);
      if (skipped(candidate)) return false;
      const mine = valuesOf(candidate);
      return others.some((doc) => !skipped(doc) && isDeepStrictEqual(valuesOf(doc), mine));
    });
  }

  drop(name: string): void {
    const at = this.specs.findIndex((s) => s.name === name);
    if (at < 0) throw serverError(27, 'IndexNotFound', `index not found with name [${name}]`);
    this.specs.splice(at, 1);
  }
}

function checkTtlSpec(spec: IndexSpec): void {
  const seconds: unknown = spec.expireAfterSeconds;
  const fields = Object.keys(spec.key);
  if (fields.length === 1 && fields[0] === '_id') {
    throw serverError(
      197,
      'InvalidIndexSpecificationOption',
      `The field 'expireAfterSeconds' is not valid for an _id index specification. Specification: ${show(spec)}`,
    );
  }
  const refuse = (why: string) => serverError(67, 'CannotCreateIndex', `TTL index 'expireAfterSeconds' option ${why}`);
  if (typeof seconds !== 'number') throw refuse(`must be numeric, but received a type of '${typeof seconds}'`);
  if (Number.isNaN(seconds)) throw refuse('must not be NaN');
  if (seconds < 0) throw refuse('cannot be less than 0');
  if (seconds > INT32_MAX) throw refuse('must be within an acceptable range, try a lower number');
  if (fields.length !== 1) {
    throw serverError(
      67,
      'CannotCreateIndex',
      'TTL indexes are single-field indexes, compound indexes do not support TTL',
    );
  }
}

/** The non-key options of a spec (expireAfterSeconds, sparse, …), for the conflict rules. */
function options(spec: IndexSpec): Doc {
  const { key: _key, name: _name, v: _v, ...rest } = spec;
  return rest;
}

function show(value: unknown): string {
  return JSON.stringify(value);
}
