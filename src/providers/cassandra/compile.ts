import { ProblemList, TtlError, problemOf } from '../../errors';
import type { EntityModel, FieldModel, FieldType, Model } from '../../model/types';
import { CQL_TYPE_OF } from './column-types';
import { STORE } from './semantics';
import type { ColumnSpec, TableSpec } from './schema';
import { checkTtlLimits, type TtlClock } from './ttl-limits';

/** One model member as a column. */
export interface ColumnMapping {
  readonly member: string;
  readonly column: string;
  readonly fieldType: FieldType;
  readonly nullable: boolean;
  readonly kind: ColumnSpec['kind'];
}

/** How one entity maps to its table: what the writers and readers need. */
export interface EntityMapping {
  readonly entity: EntityModel;
  readonly table: TableSpec;
  /** Every column, key columns first (partition, then clustering), then the others in model order. */
  readonly columns: readonly ColumnMapping[];
  readonly partition: readonly ColumnMapping[];
  readonly clustering: readonly ColumnMapping[];
  readonly regular: readonly ColumnMapping[];
  /** A counter table: no TTL, and rows are changed by increments, not INSERTs. */
  readonly isCounter: boolean;
}

export interface CompiledModel {
  readonly mappings: readonly EntityMapping[];
}

/** The problems of a compile, and the TTL errors among them (raised as they are when alone). */
interface CompileProblems {
  readonly list: ProblemList;
  readonly ttlErrors: TtlError[];
}

/**
 * Model → desired tables, as plain data. Every problem is collected: one TTL outside Cassandra's
 * limits raises that TtlError as is (it names the value); anything else, or several problems,
 * raises one ModelError listing all of them.
 */
export function compileModel(model: Model, clock: TtlClock): CompiledModel {
  const problems: CompileProblems = { list: new ProblemList(), ttlErrors: [] };
  const mappings = model.entities.map((entity) => compileEntity(entity, clock, problems));
  checkSharedTables(mappings, problems.list);
  const [soleTtlError] = problems.ttlErrors;
  if (problems.list.size === 1 && soleTtlError) throw soleTtlError;
  problems.list.throwIfAny();
  return Object.freeze({ mappings: Object.freeze(mappings) });
}

function compileEntity(entity: EntityModel, clock: TtlClock, problems: CompileProblems): EntityMapping {
  const place = { entity: entity.name, store: STORE };
  const fieldOf = (member: string) => entity.fields.find((f) => f.member === member) as FieldModel;
  const partition = entity.key.partition.map((m) => mapColumn(fieldOf(m), 'partition_key'));
  const clustering = entity.key.clustering.map((c) => mapColumn(fieldOf(c.member), 'clustering'));
  const keySet = new Set([...entity.key.partition, ...entity.key.clustering.map((c) => c.member)]);
  const regular = entity.fields.filter((f) => !keySet.has(f.member)).map((f) => mapColumn(f, 'regular'));

  const counters = regular.filter((c) => c.fieldType === 'counter');
  const isCounter = counters.length > 0;
  if (isCounter && counters.length !== regular.length) {
    problems.list.add({
      ...place,
      member: regular.find((c) => c.fieldType !== 'counter')?.member,
      code: 'CASSANDRA_COUNTER_MIXED',
      message: `counter columns (${counters.map((c) => c.member).join(', ')}) cannot share a table with other non-key columns`,
      hint: 'move the counters to an entity of their own, keyed like this one',
    });
  }
  if (isCounter && entity.ttl) {
    problems.list.add({
      ...place,
      code: 'CASSANDRA_COUNTER_TTL',
      message:
        'a table with counter columns cannot expire: Cassandra refuses default_time_to_live on counter tables ' +
        'and USING TTL on counter updates',
      hint: 'remove the TTL declaration, or keep the counters in an entity without TTL',
    });
  }
  const seconds = entity.ttl?.seconds ?? null;
  if (seconds !== null) {
    try {
      checkTtlLimits(seconds, clock, place, 'default_time_to_live');
    } catch (error) {
      if (!(error instanceof TtlError)) throw error;
      problems.ttlErrors.push(error);
      problems.list.add(problemOf(error, place));
    }
  }

  const columns = [...partition, ...clustering, ...regular];
  const orderOf = (member: string) => entity.key.clustering.find((c) => c.member === member)?.order ?? 'asc';
  const table: TableSpec = Object.freeze({
    name: entity.collection,
    columns: Object.freeze(
      columns.map((c) =>
        Object.freeze({
          name: c.column,
          type: CQL_TYPE_OF[c.fieldType],
          kind: c.kind,
          position:
            c.kind === 'partition_key' ? partition.indexOf(c) : c.kind === 'clustering' ? clustering.indexOf(c) : -1,
          order: c.kind === 'clustering' ? orderOf(c.member) : null,
        }),
      ),
    ),
    defaultTtl: seconds ?? 0,
    gcGraceSeconds: null,
  });
  return Object.freeze({
    entity,
    table,
    columns: Object.freeze(columns),
    partition: Object.freeze(partition),
    clustering: Object.freeze(clustering),
    regular: Object.freeze(regular),
    isCounter,
  });
}

/**
 * Every write INSERTs every column of the entity (that is what keeps expiry row-granular), so two
 * entities on one table would overwrite each other's columns and TTLs.
 */
function checkSharedTables(mappings: readonly EntityMapping[], problems: ProblemList): void {
  const seen = new Map<string, string>();
  for (const m of mappings) {
    const other = seen.get(m.table.name.toLowerCase());
    if (other !== undefined) {
      problems.add({
        entity: m.entity.name,
        store: STORE,
        code: 'CASSANDRA_SHARED_TABLE',
        message: `table '${m.table.name}' is also the table of ${other}`,
        hint: "give each entity its own table with @Entity('name') or .toCollection()",
      });
    }
    seen.set(m.table.name.toLowerCase(), m.entity.name);
  }
}

function mapColumn(field: FieldModel, kind: ColumnSpec['kind']): ColumnMapping {
  return Object.freeze({
    member: field.member,
    column: field.storedName,
    fieldType: field.type,
    nullable: field.nullable,
    kind,
  });
}

export function mappingFor(compiled: CompiledModel, entity: EntityModel): EntityMapping | undefined {
  return compiled.mappings.find((m) => m.entity === entity);
}
