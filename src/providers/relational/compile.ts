import { ProblemList } from '../../errors';
import { showValue } from '../../model/duration';
import { IDENTIFIER_HINT, isPortableIdentifier } from '../../model/identifiers';
import { keyMembers, type EntityModel, type FieldType, type Model, type SortOrder } from '../../model/types';
import { sqlFamily } from './families/by-dialect';
import type { RelationalDialect } from './families/dialects';
import type { ColumnType } from './families/family';
import { RELATIONAL_STORE, type RelationalTtlMode } from './options';
import { EXPIRY_COLUMN, expiryIndexName, TTL_RECORD_TABLE } from './schema/names';
import { countsFromText, ttlAnchorOf, type TtlAnchor } from './schema/ttl-anchor';

/** One column of a desired table: plain data, printable and testable without a server. */
export interface ColumnSpec {
  readonly name: string;
  /** The entity member it stores; null for the expiry column. */
  readonly member: string | null;
  readonly fieldType: FieldType;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

export interface ExpirySpec {
  readonly column: string;
  readonly index: string;
}

/** The table an entity needs on one dialect. */
export interface TableSpec {
  readonly entity: string;
  readonly table: string;
  /** Model fields in model order, then the expiry column when emulating. */
  readonly columns: readonly ColumnSpec[];
  readonly primaryKey: readonly string[];
  /** Deterministic order of find(): partition members ascending, clustering members in their order. */
  readonly orderBy: readonly { readonly column: string; readonly order: SortOrder }[];
  readonly expiry: ExpirySpec | null;
  /** The entity's default TTL when emulated (null: none, or not emulated). */
  readonly ttlSeconds: number | null;
  /** When emulated: what the expiry counts from (the writes read it here, typed). */
  readonly ttlAnchor: TtlAnchor | null;
  /** When emulated: ttlAnchor as the TTL record spells it, 'last-write', 'member:<name>' or 'instant:<name>'. */
  readonly ttlCountsFrom: string | null;
}

export interface CompiledSchema {
  readonly dialect: RelationalDialect;
  readonly ttl: RelationalTtlMode;
  readonly tables: readonly TableSpec[];
}

/** Compiles the model to the tables the dialect needs; throws one ModelError listing every problem. */
export function compileSchema(model: Model, dialect: RelationalDialect, ttl: RelationalTtlMode): CompiledSchema {
  const problems = new ProblemList();
  const tables = model.entities.map((entity) => compileEntity(entity, dialect, ttl, problems));
  checkDuplicateTables(tables, problems);
  problems.throwIfAny();
  return Object.freeze({ dialect, ttl, tables: Object.freeze(tables) });
}

function compileEntity(
  entity: EntityModel,
  dialect: RelationalDialect,
  ttl: RelationalTtlMode,
  problems: ProblemList,
): TableSpec {
  const place = { entity: entity.name, store: RELATIONAL_STORE };
  if (ttl === 'reject' && entity.ttl) {
    problems.add({
      ...place,
      code: 'RELATIONAL_TTL_REJECTED',
      message: `declares a TTL (${entity.ttl.declared}), but the relational store is configured with ttl: 'reject'`,
      hint: "remove the TTL from this entity, or choose ttl: 'emulate' (exact emulation) or ttl: 'ignore'",
    });
  }
  checkIdentifier(entity.collection, 'table name', place, problems);
  if (typeof entity.collection === 'string' && entity.collection.toLowerCase() === TTL_RECORD_TABLE) {
    problems.add({
      ...place,
      code: 'RELATIONAL_RESERVED_TABLE',
      message: `table name '${entity.collection}' is reserved: lifespan records declared TTLs in it`,
      hint: "store the entity in another table with @Entity('name') or .toCollection('name')",
    });
  }
  const keys = keyMembers(entity);
  const columns: ColumnSpec[] = entity.fields.map((field) => {
    checkIdentifier(field.storedName, 'column name', { ...place, member: field.member }, problems);
    const isKey = keys.includes(field.member);
    return {
      name: field.storedName,
      member: field.member,
      fieldType: field.type,
      type: sqlFamily(dialect).columnType(dialect, field.type, isKey),
      nullable: field.nullable && !isKey,
    };
  });
  const emulated = ttl === 'emulate' && entity.ttl !== null;
  if (emulated) {
    const taken = entity.fields.find((f) => f.storedName.toLowerCase() === EXPIRY_COLUMN);
    if (taken) {
      problems.add({
        ...place,
        member: taken.member,
        code: 'RELATIONAL_EXPIRY_COLUMN_TAKEN',
        message: `stores its member in column '${taken.storedName}', which TTL emulation needs for the expiry instant`,
        hint: "store the member under another name with @Field({ name: '...' })",
      });
    }
    columns.push({
      name: EXPIRY_COLUMN,
      member: null,
      fieldType: 'date',
      type: sqlFamily(dialect).instantType,
      nullable: true,
    });
  }
  const columnOf = (member: string) => entity.fields.find((f) => f.member === member)?.storedName ?? member;
  const stringKeys = entity.fields.filter((f) => keys.includes(f.member) && f.type === 'string').length;
  const keyLimit = sqlFamily(dialect).keyWidthLimit;
  if (keyLimit && stringKeys > keyLimit.members) {
    problems.add({
      ...place,
      code: 'RELATIONAL_KEY_TOO_WIDE',
      message: `has ${stringKeys} string key members; ${keyLimit.why}`,
      hint: 'use fewer string key members, or uuid / integer keys',
    });
  }
  return Object.freeze({
    entity: entity.name,
    table: entity.collection,
    columns: Object.freeze(columns.map((c) => Object.freeze(c))),
    primaryKey: Object.freeze(keys.map(columnOf)),
    orderBy: Object.freeze([
      ...entity.key.partition.map((m) => ({ column: columnOf(m), order: 'asc' as const })),
      ...entity.key.clustering.map((c) => ({ column: columnOf(c.member), order: c.order })),
    ]),
    expiry: emulated ? Object.freeze({ column: EXPIRY_COLUMN, index: expiryIndexName(entity.collection) }) : null,
    ttlSeconds: emulated ? (entity.ttl?.seconds ?? null) : null,
    ttlAnchor: emulated ? ttlAnchorOf(entity) : null,
    ttlCountsFrom: emulated ? countsFrom(entity) : null,
  });
}

/** What an emulated expiry counts from, as explain() and the TTL record say it. */
export function countsFrom(entity: EntityModel): string {
  return countsFromText(ttlAnchorOf(entity));
}

/** The model builder checks names too; a hand-made model must not reach SQL with a bad one. */
function checkIdentifier(
  name: unknown,
  what: string,
  place: { entity: string; store: string; member?: string },
  problems: ProblemList,
): void {
  if (typeof name === 'string' && isPortableIdentifier(name)) return;
  problems.add({
    ...place,
    code: 'RELATIONAL_BAD_IDENTIFIER',
    message: `${what} ${showValue(name)} cannot be used in SQL`,
    hint: IDENTIFIER_HINT,
  });
}

function checkDuplicateTables(tables: TableSpec[], problems: ProblemList): void {
  const seen = new Map<string, string>();
  for (const t of tables) {
    const other = seen.get(t.table.toLowerCase());
    if (other !== undefined) {
      problems.add({
        entity: t.entity,
        store: RELATIONAL_STORE,
        code: 'RELATIONAL_DUPLICATE_TABLE',
        message: `uses table '${t.table}', which ${other} uses too`,
        hint: "give one of them another table with @Entity('name') or .toCollection('name')",
      });
    }
    seen.set(t.table.toLowerCase(), t.entity);
  }
}

export function columnOfMember(table: TableSpec, member: string): ColumnSpec | undefined {
  return table.columns.find((c) => c.member === member);
}
