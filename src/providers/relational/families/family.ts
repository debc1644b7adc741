import type { FieldType } from '../../../model/types';
import type { RelationalDialect } from './dialects';

/** The three SQL families: MariaDB and MySQL share the `mysql2` driver and almost all SQL. */
export type DialectFamily = 'sqlite' | 'postgres' | 'mysql';

export interface ColumnType {
  /** As written in DDL. */
  readonly sql: string;
  /** As inspection reports it (normalised), to compare live columns with the model. */
  readonly live: string;
  /** Binary collation for exact text equality (MariaDB/MySQL text columns only). */
  readonly collation: string | null;
}

/** Fields the three drivers put on their errors. */
export interface DriverError {
  readonly code?: unknown;
  readonly errno?: unknown;
  readonly message?: unknown;
  /** PostgreSQL: the constraint's name and "Key (columns)=(values) already exists." */
  readonly constraint?: unknown;
  readonly detail?: unknown;
}

/** How the family's driver words a key violation or an "already exists" answer. */
export interface KeyViolations {
  /** Any unique violation: the primary key or another unique index (hitsPrimaryKey tells which). */
  isUnique(error: DriverError): boolean;
  /** "already exists" answers to DDL the family cannot guard with IF NOT EXISTS. */
  isAlreadyThere(error: DriverError): boolean;
  /** Whether a unique violation is the table's primary key; silence is not the key. */
  hitsPrimaryKey(error: DriverError, table: string, keyColumns: readonly string[]): boolean;
}

/** A column as deleteMany() selects it, and the test that the bound-back value is still the stored one. */
export interface SelectedValue {
  read(column: string, type: FieldType | null): string;
  same(column: string, type: FieldType | null, param: string): string;
}

/**
 * SQL fragments of the expiry emulation. `now` is either the database clock or a bound parameter
 * (an injected clock or purgeExpired({ now })).
 */
export interface ExpirySql {
  /** The database's current instant, in the instant type. */
  readonly dbNow: string;
  /** A bound parameter read as an instant. */
  nowParam(placeholder: string): string;
  /** `instant + seconds` where seconds is a bound whole number. */
  plusSeconds(instant: string, secondsPlaceholder: string): string;
  /** Milliseconds from `now` until `column` (NULL when the column is NULL). */
  remainingMs(column: string, now: string): string;
}

/** The guards a dialect's DDL takes (what it lacks, apply tolerates as "already there"). */
export interface DdlGuards {
  readonly createIndexIfNotExists: boolean;
  readonly addColumnIfNotExists: boolean;
  readonly dropIndexIfExists: boolean;
}

/** A cap on string key members, where the family's index keys are narrow. */
export interface KeyWidthLimit {
  readonly members: number;
  readonly why: string;
}

/**
 * Everything that differs between SQL families, in one object per family: the SQL builders, the
 * codec and the schema code ask it instead of branching on the family's name.
 */
export interface SqlFamily {
  readonly name: DialectFamily;
  /** Identifiers are validated against the portable pattern first, so quoting never needs escaping. */
  quote(name: string): string;
  /** `$n` placeholders (one number per distinct source, reused) rather than `?` per occurrence. */
  readonly numberedParams: boolean;

  /** The instant type of `date` members and of expires_at. */
  readonly instantType: ColumnType;
  /** A member's column type (a `date` member's is the instant type). */
  columnType(dialect: RelationalDialect, type: FieldType, isKey: boolean): ColumnType;
  /** A live column type, as the catalog reports it, in the form the model's `live` type is written. */
  normaliseLiveType(type: string): string;
  readonly integerCast: string;
  readonly keyWidthLimit: KeyWidthLimit | null;
  ddlGuards(dialect: RelationalDialect): DdlGuards;
  dropIndexSql(table: string, index: string, ifExists: boolean): string;

  readonly expiry: ExpirySql;
  /** How the database clock is named in explanations. */
  readonly clockName: string;
  /** How this family's users usually schedule a purge. */
  readonly schedulerHint: string;
  /** How expires_at holds an instant, in words (after the column name). */
  readonly instantStorage: string;

  /** An instant as the column stores it. */
  encodeInstant(date: Date): unknown;
  /** An instant read back as text. */
  parseInstantText(text: string): Date;
  /** The driver takes a JS bigint as is (else it is bound as decimal text). */
  readonly bindsBigint: boolean;
  /** The driver takes a JS boolean as is (else it is bound as 1/0). */
  readonly bindsBoolean: boolean;
  /** The driver parses the json column itself (else it returns the stored text). */
  readonly parsesJson: boolean;

  /** Inside an upsert's conflict clause: the incoming row's value of a (quoted) column. */
  incoming(column: string): string;
  /** Inside an upsert's conflict clause: the stored row's value of a (quoted) column of `table`. */
  stored(table: string, column: string): string;
  /**
   * Whether an insert can replace an expired row in its own conflict clause (ON CONFLICT ... WHERE).
   * Without it, an insert first deletes an expired row with its key and a duplicate key means live.
   */
  readonly conditionalInsert: boolean;
  /** The conflict clause of an upsert: `sets` on a conflict over the (quoted) key columns. */
  onConflictUpdate(keyColumns: readonly string[], sets: readonly string[]): string;

  /**
   * A member's (quoted) column as a read selects it, at `position` in the select list. MariaDB/MySQL
   * read DATETIME and bigint members as text, so that mysql2's connection settings (zone,
   * dateStrings, big numbers) cannot change the value read.
   */
  selectColumn(column: string, type: FieldType, position: number): string;

  /**
   * Driver options for lifespan's own `knex.raw` reads (schema inspection, locks), where the user's
   * connection settings could change the rows' shape; null: none needed.
   */
  readonly rawQueryOptions: Readonly<Record<string, unknown>> | null;
  /** The rows of a `knex.raw` result. */
  rowsOf(result: unknown): Record<string, unknown>[];

  /** A compound key's "after the last key" (quoted columns, `arg(i)` the i-th key value), as the index range scan takes it. */
  afterCompoundKey(columns: readonly string[], arg: (i: number) => string): string;
  /** How deleteMany() reads a checked column so that binding the value back compares exactly. */
  readonly selectedValue: SelectedValue;
  readonly keyViolations: KeyViolations;
  /** A deadlock or lock-wait timeout of the family's driver: "another transaction held a lock", safe to retry. */
  isLockConflict(error: DriverError): boolean;
}
