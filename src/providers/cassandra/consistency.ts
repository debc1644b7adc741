import { LifespanError } from '../../errors';
import { showValue } from '../../model/show-value';
import { STORE } from './semantics';

/**
 * The consistency levels of the CQL native protocol, with their wire codes (native_protocol_v4.spec
 * §3 [consistency], https://github.com/apache/cassandra/blob/trunk/doc/native_protocol_v4.spec).
 * The codes are what the driver sends; naming them here keeps cassandra-driver a type-only import.
 */
export const CONSISTENCY_CODES = {
  ANY: 0x0000,
  ONE: 0x0001,
  TWO: 0x0002,
  THREE: 0x0003,
  QUORUM: 0x0004,
  ALL: 0x0005,
  LOCAL_QUORUM: 0x0006,
  EACH_QUORUM: 0x0007,
  SERIAL: 0x0008,
  LOCAL_SERIAL: 0x0009,
  LOCAL_ONE: 0x000a,
} as const;

export type ConsistencyLevel = keyof typeof CONSISTENCY_CODES;

const LEVELS = Object.keys(CONSISTENCY_CODES) as ConsistencyLevel[];

/** The Paxos phase of a lightweight transaction (IF NOT EXISTS, IF col = ?) runs at one of these. */
export const SERIAL_LEVELS = ['SERIAL', 'LOCAL_SERIAL'] as const satisfies readonly ConsistencyLevel[];

export type SerialLevel = (typeof SERIAL_LEVELS)[number];
/**
 * ANY is for writes only ("ANY ConsistencyLevel is only supported for writes", ConsistencyLevel.validateForRead).
 * SERIAL levels are refused for reads here: a serial read is linearizable only within one partition,
 * and lifespan's read level also runs find, count and plan --counts, which scan ranges.
 */
export type ReadLevel = Exclude<ConsistencyLevel, 'ANY' | SerialLevel>;
/** SERIAL levels are refused for plain writes ("You must use conditional updates for serializable writes"). */
export type WriteLevel = Exclude<ConsistencyLevel, SerialLevel>;

const isSerial = (level: string): boolean => (SERIAL_LEVELS as readonly string[]).includes(level);

export const READ_LEVELS: readonly ReadLevel[] = LEVELS.filter((l): l is ReadLevel => l !== 'ANY' && !isSerial(l));
export const WRITE_LEVELS: readonly WriteLevel[] = LEVELS.filter((l): l is WriteLevel => !isSerial(l));

/** `consistency: { read, write, serial }` of new CassandraStore(...): each omitted level is the client's own. */
export interface CassandraConsistency {
  /**
   * Every SELECT lifespan sends (get, getMany, find, findPage, count, exists, ttl); the reads of
   * setTtl and upsert run at the stronger of read and write.
   */
  readonly read?: ReadLevel;
  /** Every INSERT, UPDATE, DELETE and BATCH, and the commit of a lightweight transaction. */
  readonly write?: WriteLevel;
  /** The Paxos phase of lightweight transactions (insert's IF NOT EXISTS, conditional writes). */
  readonly serial?: SerialLevel;
}

const KINDS = {
  read: READ_LEVELS,
  write: WRITE_LEVELS,
  serial: SERIAL_LEVELS,
} as const satisfies Record<keyof CassandraConsistency, readonly ConsistencyLevel[]>;

type Kind = keyof typeof KINDS;

const EXAMPLE = "consistency: { read: 'LOCAL_QUORUM', write: 'LOCAL_QUORUM', serial: 'LOCAL_SERIAL' }";

/**
 * Checks options.consistency: a plain object with only read / write / serial, each a level that
 * kind accepts. Returns a frozen copy, so changing the caller's object later changes nothing.
 */
export function checkConsistency(value: unknown): CassandraConsistency {
  if (value === undefined) return Object.freeze({});
  if (!isPlainObject(value)) {
    throw badConsistency(`consistency must be an object { read?, write?, serial? }, got ${showValue(value)}`, EXAMPLE);
  }
  const given = value as Record<string, unknown>;
  const unknownKeys = Object.keys(given).filter((key) => !Object.hasOwn(KINDS, key));
  if (unknownKeys.length > 0) {
    throw badConsistency(
      `consistency has unknown key${unknownKeys.length > 1 ? 's' : ''} ${unknownKeys.map((k) => `'${k}'`).join(', ')}; ` +
        `it takes read, write and serial`,
      EXAMPLE,
    );
  }
  const copy: Partial<Record<Kind, ConsistencyLevel>> = {};
  for (const kind of Object.keys(KINDS) as Kind[]) {
    const level = given[kind];
    if (level === undefined) continue;
    const known: readonly string[] = KINDS[kind];
    if (typeof level !== 'string' || !known.includes(level)) {
      throw badConsistency(
        `consistency.${kind} must be one of ${known.join(', ')}, got ${showValue(level)}${whyRefused(kind, level)}`,
        `${kind}: '${known.includes('LOCAL_QUORUM') ? 'LOCAL_QUORUM' : 'LOCAL_SERIAL'}'`,
      );
    }
    copy[kind] = level as ConsistencyLevel;
  }
  return Object.freeze(copy) as CassandraConsistency;
}

/** Only `{ ... }` or Object.create(null): a Map, a Date or a class instance has no levels to read. */
function isPlainObject(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Levels that exist but not for this kind get the server's reason, and near misses the fix. */
function whyRefused(kind: Kind, level: unknown): string {
  if (typeof level === 'number') {
    const name = LEVELS.find((l) => CONSISTENCY_CODES[l] === level);
    return name === undefined ? '' : ` (the driver's code of ${name}: give the level's name, '${name}')`;
  }
  if (typeof level !== 'string') return '';
  if (!Object.hasOwn(CONSISTENCY_CODES, level)) {
    const upper = level.toUpperCase();
    return Object.hasOwn(CONSISTENCY_CODES, upper) ? ` (levels are upper case: '${upper}')` : '';
  }
  if (kind === 'read') {
    return level === 'ANY'
      ? ' (ANY is for writes only)'
      : ' (a SERIAL read is linearizable only within one partition, and the read level also runs ' +
          "find, count and plan --counts, which scan ranges: use 'QUORUM' or 'LOCAL_QUORUM', and serial for lightweight transactions)";
  }
  if (kind === 'write') return ' (SERIAL levels are for the Paxos phase of conditional writes: set them as serial)';
  return ' (serial takes a SERIAL level; the commit of a conditional write runs at consistency.write)';
}

function badConsistency(message: string, hint: string): LifespanError {
  return new LifespanError('STORE_BAD_OPTION', message, { store: STORE, hint });
}

/** A counter update cannot run at ANY ("Consistency level ANY is not yet supported for counter table"). */
export function checkCounterConsistency(consistency: CassandraConsistency, counterTables: readonly string[]): void {
  if (consistency.write !== 'ANY' || counterTables.length === 0) return;
  throw badConsistency(
    `consistency.write 'ANY' cannot be used with counter table${counterTables.length > 1 ? 's' : ''} ` +
      `${counterTables.join(', ')}: Cassandra refuses counter updates at ANY`,
    "use write: 'ONE' or stronger",
  );
}

/** The driver's per-statement options for one statement of this kind. */
export function driverConsistency(
  consistency: CassandraConsistency,
  kind: 'read' | 'write',
): { consistency?: number; serialConsistency?: number } {
  const level = consistency[kind];
  return {
    ...(level === undefined ? {} : { consistency: CONSISTENCY_CODES[level] }),
    ...(consistency.serial === undefined ? {} : { serialConsistency: CONSISTENCY_CODES[consistency.serial] }),
  };
}

/**
 * How many replicas a level waits for, to compare two of them: LOCAL_ONE and ONE alike, a quorum
 * in one datacenter below a quorum of all, ALL above everything. ANY (a hint counts) is the weakest.
 */
const STRENGTH: Record<WriteLevel, number> = {
  ANY: 0,
  ONE: 1,
  LOCAL_ONE: 1,
  TWO: 2,
  THREE: 3,
  LOCAL_QUORUM: 3,
  QUORUM: 4,
  EACH_QUORUM: 5,
  ALL: 6,
};

/**
 * The levels of a read whose answer decides a write (the stored createdAt an upsert keeps, the
 * cells setTtl rewrites): the stronger of read and write, so the write does not build on a read
 * that fewer replicas answered. On a tie, or when write is ANY, the read level.
 */
export function readBeforeWrite(consistency: CassandraConsistency): CassandraConsistency {
  const { read, write } = consistency;
  if (write === undefined || write === 'ANY') return consistency;
  if (read !== undefined && STRENGTH[read] >= STRENGTH[write]) return consistency;
  return { ...consistency, read: write };
}

/** The levels of the client's own queryOptions (wire codes), which apply where the store sets none. */
export interface ClientLevels {
  readonly consistency?: number;
  readonly serialConsistency?: number;
}

/** queryOptions of a cassandra-driver Client (its defaults merged in once it is constructed). */
export function clientLevels(client: unknown): ClientLevels {
  const options = (client as { options?: { queryOptions?: Record<string, unknown> } } | null)?.options?.queryOptions;
  const code = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const consistency = code(options?.['consistency']);
  const serialConsistency = code(options?.['serialConsistency']);
  return {
    ...(consistency === undefined ? {} : { consistency }),
    ...(serialConsistency === undefined ? {} : { serialConsistency }),
  };
}

const nameOf = (code: number | undefined): string | undefined => LEVELS.find((l) => CONSISTENCY_CODES[l] === code);

/** What explain() says about the levels: the configured ones, or the client's own where none is set. */
export function consistencySentence(consistency: CassandraConsistency | null, client: ClientLevels = {}): string {
  if (consistency === null) {
    return (
      'reads, writes and the Paxos phase of lightweight transactions run at the levels of the ' +
      "store's consistency option ({ read, write, serial }), or else at the client's queryOptions " +
      '(cassandra-driver 4.x defaults: LOCAL_ONE, serial SERIAL).'
    );
  }
  const fallback = (code: number | undefined) => {
    const name = nameOf(code);
    return name === undefined ? "the client's default level" : `the client's queryOptions level (${name})`;
  };
  const level = (kind: Kind) =>
    consistency[kind] ?? fallback(kind === 'serial' ? client.serialConsistency : client.consistency);
  return (
    `reads run at ${level('read')}, writes and batches at ${level('write')}, ` +
    `the Paxos phase of lightweight transactions (insert's IF NOT EXISTS) at ${level('serial')}.`
  );
}
