import { showValue } from '../../model/duration';
import type { TtlIndexSpec } from './compile';
import { EXPIRE_AFTER_SECONDS } from './semantics';
import { checkExpireAfterSeconds, checkTtlKey } from './ttl-limits';

/** A command or filter document as lifespan hands it to the driver (plain data, BSON-serialisable). */
export type Doc = Record<string, unknown>;

/** An index key pattern as listIndexes returns it ({ field: 1 }, { field: -1 }, { a: 1, b: 1 }). */
export type KeyPattern = Readonly<Record<string, unknown>>;

/**
 * The schema commands, built in one place so every TTL value passes the guards. Numbers stay plain
 * JS integers: the BSON serializer writes an integer in int32 range as int32, the type the server
 * echoes back for expireAfterSeconds (test/mongodb/bson.test.ts proves it with the driver's BSON).
 */
export function createIndexesCommand(collection: string, index: TtlIndexSpec): Doc {
  checkTtlKey(index.key, collection);
  return {
    createIndexes: collection,
    indexes: [
      {
        key: { ...index.key },
        name: index.name,
        expireAfterSeconds: checkExpireAfterSeconds(index.expireAfterSeconds, collection),
      },
    ],
  };
}

/** Changes (or adds, 5.1+) expireAfterSeconds of an existing single-field index in place. */
export function collModCommand(collection: string, keyPattern: KeyPattern, expireAfterSeconds: number): Doc {
  checkTtlKey(keyPattern, collection);
  return {
    collMod: collection,
    index: {
      keyPattern: { ...keyPattern },
      expireAfterSeconds: checkExpireAfterSeconds(expireAfterSeconds, collection),
    },
  };
}

/** One TTL index setting a command carries: the index's key and the expireAfterSeconds it sets. */
export interface TtlSetting {
  readonly key: KeyPattern;
  readonly to: unknown;
}

/**
 * What a schema command does to TTL indexes, read in one place for the plan gate's parse, its TTL
 * guards, apply()'s live judgement and the collMod reply check. A plan payload is editable data:
 * a shape lifespan never sends (a collMod whose `index` is not a document, a createIndexes whose
 * `indexes` is not a list of documents) is `malformed`, never read as if it were well formed.
 */
export type TtlCommand =
  | { readonly kind: 'none' }
  | ({ readonly kind: 'collMod'; readonly collection: string } & TtlSetting)
  | { readonly kind: 'createIndexes'; readonly collection: string; readonly settings: readonly TtlSetting[] }
  | { readonly kind: 'malformed'; readonly why: string };

export function ttlCommandOf(command: Doc): TtlCommand {
  if ('collMod' in command) {
    const collection = command['collMod'];
    const index = command['index'];
    if (typeof collection !== 'string') return malformed(`its collMod names no collection (${showValue(collection)})`);
    if (!isDocument(index)) return malformed(`its collMod index is ${showValue(index)}, not an index document`);
    if (!(EXPIRE_AFTER_SECONDS in index)) return { kind: 'none' };
    const key = index['keyPattern'];
    if (!isDocument(key)) return malformed(`its collMod names the index by ${showValue(key)}, not by a keyPattern`);
    return { kind: 'collMod', collection, key, to: index[EXPIRE_AFTER_SECONDS] };
  }
  if ('createIndexes' in command) {
    const collection = command['createIndexes'];
    const specs = command['indexes'];
    if (typeof collection !== 'string') {
      return malformed(`its createIndexes names no collection (${showValue(collection)})`);
    }
    if (!Array.isArray(specs) || !specs.every(isDocument)) {
      return malformed(`its createIndexes indexes are ${showValue(specs)}, not a list of index documents`);
    }
    const settings: TtlSetting[] = [];
    for (const spec of specs) {
      if (!(EXPIRE_AFTER_SECONDS in spec)) continue;
      if (!isDocument(spec['key'])) return malformed(`its createIndexes has an index key ${showValue(spec['key'])}`);
      settings.push({ key: spec['key'], to: spec[EXPIRE_AFTER_SECONDS] });
    }
    return settings.length === 0 ? { kind: 'none' } : { kind: 'createIndexes', collection, settings };
  }
  return { kind: 'none' };
}

function malformed(why: string): TtlCommand {
  return { kind: 'malformed', why };
}

/** A plain document: not null, not an array, not a primitive. */
function isDocument(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function dropIndexCommand(collection: string, name: string): Doc {
  return { dropIndexes: collection, index: name };
}

export function createCollectionCommand(collection: string): Doc {
  return { create: collection };
}

export function listIndexesCommand(collection: string): Doc {
  return { listIndexes: collection };
}

export const BUILD_INFO_COMMAND: Doc = Object.freeze({ buildInfo: 1 });
/** hello.localTime is the server's clock, used to count documents against "now" without trusting ours. */
export const HELLO_COMMAND: Doc = Object.freeze({ hello: 1 });

/** A command as mongosh would run it, for plans and explain(). */
export function shellCommand(command: Doc): string {
  return `db.runCommand(${shellValue(command)})`;
}

/** mongosh-style text of a value: unquoted simple keys, ISODate for dates. */
export function shellValue(value: unknown): string {
  if (value instanceof Date) return `ISODate("${value.toISOString()}")`;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[ ${value.map(shellValue).join(', ')} ]`;
  if (typeof value === 'bigint') return `NumberLong("${value.toString()}")`;
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Doc);
    if (entries.length === 0) return '{}';
    return `{ ${entries.map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}: ${shellValue(v)}`).join(', ')} }`;
  }
  return String(value);
}
