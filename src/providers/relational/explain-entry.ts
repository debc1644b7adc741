import type { ExplainEntry } from '../../explain/entry';
import { relationalConditionalWrites } from './explain/conditional-writes';
import type { EntityModel, Model } from '../../model/types';
import { countsFrom, type CompiledSchema, type TableSpec } from './compile';
import { createTableCommands } from './schema/ddl-sql';
import { dialectLabel, type RelationalDialect } from './families/dialects';
import { EXPIRY_COLUMN } from './schema/names';
import { withMemberExpiry } from './write/expiry-instant';
import { RELATIONAL_STORE } from './options';
import {
  anchorLimit,
  emulatedText,
  ignoredText,
  instantStorage,
  NO_NATIVE_TTL,
  noTtlText,
  perWriteRows,
  schedulerHint,
} from './semantics';
import { RELATIONAL_UNEXPIRY, RELATIONAL_TOUCH } from './explain/unexpiry';

/** One entry per entity; `injectedClock` when a session was given a clock instead of the database's. */
export function explainSchema(model: Model, schema: CompiledSchema, injectedClock: boolean): ExplainEntry[] {
  const byEntity = tablesByEntity(schema);
  return model.entities.map((entity) =>
    explainEntity(entity, byEntity.get(entity.name) as TableSpec, schema, injectedClock),
  );
}

/** Entity name → its table, built once: a lookup per entity keeps explain linear in the model size. */
export function tablesByEntity(schema: CompiledSchema): Map<string, TableSpec> {
  return new Map(schema.tables.map((t) => [t.entity, t]));
}

function explainEntity(
  entity: EntityModel,
  table: TableSpec,
  schema: CompiledSchema,
  injectedClock: boolean,
): ExplainEntry {
  const { dialect, ttl: mode } = schema;
  const commands = createTableCommands(dialect, table);
  const base = {
    entity: entity.name,
    collection: entity.collection,
    store: RELATIONAL_STORE,
    key: `PRIMARY KEY (${table.primaryKey.join(', ')}): the full key`,
    seconds: entity.ttl?.seconds ?? null,
    perWrite: perWriteRows(entity, mode, dialect),
    conditionalWrites: relationalConditionalWrites(entity, mode),
  };
  if (!entity.ttl) {
    return {
      ...base,
      mechanism: 'none',
      countsFrom: null,
      materializedBy: { text: 'CREATE TABLE (no TTL declared)', commands },
      expiredVisibleUntilDeleted: false,
      deletion: { by: 'nobody: no TTL declared', lag: 'never' },
      changeEffect: { kind: 'none', text: 'no TTL declared' },
      limits: [],
      warnings: [],
      text: noTtlText(entity),
    };
  }
  if (table.expiry) return emulatedEntry(entity, dialect, commands, base, injectedClock);
  return {
    ...base,
    mechanism: 'none',
    countsFrom: null,
    materializedBy: { text: `nothing: ${dialectLabel(dialect)} has no native TTL and ttl is 'ignore'`, commands },
    expiredVisibleUntilDeleted: true,
    deletion: { by: `you: schedule your own DELETE (${schedulerHint(dialect)})`, lag: 'until you delete the rows' },
    unexpiry: RELATIONAL_UNEXPIRY.ignored,
    changeEffect: { kind: 'none', text: 'the declaration is ignored, so changing it changes nothing stored' },
    limits: [],
    warnings: [`${NO_NATIVE_TTL} (or choose ttl: 'emulate')`],
    text: ignoredText(entity, dialect),
  };
}

function emulatedEntry(
  entity: EntityModel,
  dialect: RelationalDialect,
  commands: string[],
  base: Pick<ExplainEntry, 'entity' | 'collection' | 'store' | 'key' | 'seconds' | 'perWrite' | 'conditionalWrites'>,
  injectedClock: boolean,
): ExplainEntry {
  const ttl = entity.ttl;
  const anchor = ttl?.anchor;
  const warnings = [
    `SQL run outside lifespan still sees expired rows until purgeExpired() deletes them: filter with ${EXPIRY_COLUMN} > now`,
  ];
  if (anchor?.source === 'createdAt' && ttl?.seconds !== null) {
    warnings.unshift(
      `the TTL counts from each row's last write, not from ${anchor.member}: an upsert renews the row's life`,
    );
  }
  return withMemberExpiry(entity, {
    ...base,
    mechanism: 'emulated',
    countsFrom: countsFrom(entity),
    materializedBy: {
      text: `${EXPIRY_COLUMN} column and its index, stamped by lifespan on every write; ${instantStorage(dialect)}`,
      commands,
    },
    expiredVisibleUntilDeleted: false,
    deletion: {
      by: `purgeExpired(), scheduled by you (${schedulerHint(dialect)})`,
      lag: 'until the next purge; expired rows are invisible to lifespan reads at once',
    },
    unexpiry: RELATIONAL_UNEXPIRY.emulated,
    touch: RELATIONAL_TOUCH,
    changeEffect: {
      kind: 'new-writes-only',
      text: `${EXPIRY_COLUMN} is stamped at write: a TTL change applies to rows written after it; stored rows keep their expiry until rewritten or setTtl`,
    },
    limits: [
      'TTL 1..2147483647 s, whole seconds; a row is expired when expires_at <= now (inclusive)',
      'expired rows take space until purgeExpired() deletes them',
      ...(anchor?.source === 'explicit' && ttl?.seconds ? [anchorLimit(anchor.member, ttl.seconds)] : []),
    ],
    warnings,
    text: emulatedText(entity, dialect, injectedClock),
  });
}
