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
/** ANY is for writes only ("ANY ConsistencyLevel is only supported for writes", ConsistencyLevel.validateForRead). */
export type ReadLevel = Exclude<ConsistencyLevel, 'ANY'>;
/** SERIAL levels are refused for plain writes ("You must use conditional updates for serializable writes"). */
export type WriteLevel = Exclude<ConsistencyLevel, SerialLevel>;

export const READ_LEVELS: readonly ReadLevel[] = LEVELS.filter((l): l is ReadLevel => l !== 'ANY');
export const WRITE_LEVELS: readonly WriteLevel[] = LEVELS.filter(
  (l): l is WriteLevel => !(SERIAL_LEVELS as readonly string[]).includes(l),
);

/** `consistency: { read, write, serial }` of new CassandraStore(...): each omitted level is the client's own. */
export interface CassandraConsistency {
  /** Every SELECT lifespan sends (get, getMany, find, count, exists, ttl, the reads of setTtl and upsert). */
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

/** Checks options.consistency: an object with only read / write / serial, each a level that kind accepts. */
export function checkConsistency(value: unknown): CassandraConsistency {
  if (value === undefined) return {};
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
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
  }
  return given as CassandraConsistency;
}

/** Levels that exist but not for this kind get the server's reason, so the fix is obvious. */
function whyRefused(kind: Kind, level: unknown): string {
  if (typeof level !== 'string' || !Object.hasOwn(CONSISTENCY_CODES, level)) return '';
  if (kind === 'read') return ' (ANY is for writes only)';
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

/** What explain() says about the levels: the configured ones, or whose default applies. */
export function consistencySentence(consistency: CassandraConsistency | null): string {
  if (consistency === null) {
    return (
      'reads, writes and the Paxos phase of lightweight transactions run at the levels of the ' +
      "store's consistency option ({ read, write, serial }), or else at the client's defaults " +
      '(cassandra-driver 4.x: LOCAL_ONE, serial SERIAL).'
    );
  }
  const level = (kind: Kind, fallback: string) => consistency[kind] ?? `the client's default (${fallback})`;
  return (
    `reads run at ${level('read', 'LOCAL_ONE unless its queryOptions say otherwise')}, ` +
    `writes and batches at ${level('write', 'LOCAL_ONE unless its queryOptions say otherwise')}, ` +
    `the Paxos phase of lightweight transactions (insert's IF NOT EXISTS) at ${level('serial', 'SERIAL')}.`
  );
}
