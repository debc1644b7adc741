import type { TtlIndexSpec } from './compile';
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
