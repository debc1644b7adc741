import { randomUUID } from 'node:crypto';
import { connect } from '../connect';
import { formatDuration } from '../model/duration';
import type { PerWriteTtl } from '../model/per-write-ttl';
import { keyMembers, type EntityModel, type FieldType, type Model } from '../model/types';
import { openerFor } from '../providers/url-openers';
import { instanceOf } from '../runtime/entity-values';

/** How far ahead the demo's purge looks: past a week-long TTL, short of a 30-day one. */
const PURGE_AHEAD_MS = 8 * 86400 * 1000;
const SHORT_TTL = '90s';

export interface RelationalDemoRow {
  readonly collection: string;
  readonly key: string;
  readonly ttl: string;
  readonly remaining: number | null | undefined;
  readonly purged: boolean;
}

export interface RelationalDemoResult {
  readonly rows: readonly RelationalDemoRow[];
  readonly purged: Readonly<Record<string, number>>;
}

/**
 * The embedded default end to end: applies the model to a SQLite file with emulated TTL, writes
 * rows with different TTLs, prints their remaining TTL, then purges with a "now" eight days ahead
 * and prints what went. `lifespan demo` (and `npm start`) calls it with the example models.
 */
export async function runRelationalDemo(
  log: (line: string) => void,
  file: string,
  model: Model,
): Promise<RelationalDemoResult> {
  // The same opener as `--url sqlite:…`: the demo needs knex and better-sqlite3, nothing else.
  const url = `sqlite:${file}?ttl=emulate`;
  const opened = await openerFor(url)(url);
  try {
    const db = await connect(model, opened.store);
    log(`SQLite file ${file}, TTL emulated (expires_at per row, database clock)`);
    const applied = await db.ensureCollections();
    log(`ensureCollections(): ${applied.applied.length} step(s) applied`);
    for (const step of applied.applied) log(`  ${step.summary}`);

    const written: (Omit<RelationalDemoRow, 'purged'> & { entity: EntityModel; keyValue: object })[] = [];
    for (const entity of model.entities) {
      const repository = db.repository(entity.target);
      const plans: { suffix: string; ttl: PerWriteTtl | undefined; label: string }[] = [
        { suffix: 'a', ttl: undefined, label: defaultLabel(entity) },
      ];
      if (entity.ttl?.perWrite) plans.push({ suffix: 'b', ttl: SHORT_TTL, label: `per-write ${SHORT_TTL}` });
      for (const [i, plan] of plans.entries()) {
        const values = sampleValues(entity, `${entity.collection}-${plan.suffix}`, i);
        await repository.upsert(instanceOf(entity, values), plan.ttl === undefined ? {} : { ttl: plan.ttl });
        const key = keyOf(entity, values);
        const remaining = await repository.ttl(key);
        written.push({
          entity,
          keyValue: key,
          collection: entity.collection,
          key: describeKey(entity, values),
          ttl: plan.label,
          remaining,
        });
        log(
          `  ${entity.collection} ${describeKey(entity, values)} (${plan.label}): ttl() = ${showRemaining(remaining)}`,
        );
      }
    }

    const now = new Date(Date.now() + PURGE_AHEAD_MS);
    const result = await db.purgeExpired({ now });
    log(`purgeExpired({ now: ${now.toISOString()} }) deleted ${result.deleted} row(s) in ${result.batches} batch(es)`);
    const byTable = (result as { byTable?: Record<string, number> }).byTable ?? {};
    const rows: RelationalDemoRow[] = [];
    for (const { entity, keyValue: key, ...row } of written) {
      // Every row written is still live on the database clock: a missing one was purged.
      rows.push({ ...row, purged: !(await db.repository(entity.target).exists(key)) });
    }
    for (const [table, count] of Object.entries(byTable)) log(`  ${table}: ${count} purged`);
    for (const row of rows.filter((r) => !r.purged)) log(`  kept ${row.collection} ${row.key} (${row.ttl})`);
    await db.close();
    return { rows, purged: byTable };
  } finally {
    await opened.dispose();
  }
}

function defaultLabel(entity: EntityModel): string {
  const ttl = entity.ttl;
  if (!ttl) return 'no TTL';
  if (ttl.seconds === null) return 'no default TTL';
  const from = ttl.anchor?.source === 'explicit' ? ` after ${ttl.anchor.member}` : '';
  return `default ${formatDuration(ttl.seconds)}${from}`;
}

function showRemaining(remaining: number | null | undefined): string {
  if (remaining === undefined) return 'missing';
  return remaining === null ? 'never expires' : `${remaining}s`;
}

function keyOf(entity: EntityModel, values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(keyMembers(entity).map((m) => [m, values[m]]));
}

function describeKey(entity: EntityModel, values: Record<string, unknown>): string {
  return keyMembers(entity)
    .map((m) => {
      const v = values[m];
      return v instanceof Date ? v.toISOString() : String(v);
    })
    .join('/');
}

/** Plausible values for any model: the key from `label`, every other member by its type. */
function sampleValues(entity: EntityModel, label: string, index: number): Record<string, unknown> {
  const keys = keyMembers(entity);
  const values: Record<string, unknown> = {};
  for (const field of entity.fields) {
    values[field.member] = keys.includes(field.member)
      ? keyValue(field.type, label, index)
      : sample(field.type, field.member);
  }
  return values;
}

function keyValue(type: FieldType, label: string, index: number): unknown {
  switch (type) {
    case 'string':
      return label;
    case 'uuid':
      return randomUUID();
    case 'date':
      return new Date(Date.UTC(2025, 0, 1, 0, 0, index));
    case 'bigint':
      return BigInt(index + 1);
    case 'number':
    case 'integer':
    case 'counter':
    case 'boolean':
    case 'json':
    case 'binary':
      return index + 1;
  }
}

function sample(type: FieldType, member: string): unknown {
  switch (type) {
    case 'string':
      return `${member} value`;
    case 'uuid':
      return randomUUID();
    case 'number':
      return 21.5;
    case 'integer':
    case 'counter':
      return 1;
    case 'bigint':
      return 1n;
    case 'boolean':
      return true;
    case 'date':
      return new Date();
    case 'json':
      return ['demo'];
    case 'binary':
      return Buffer.from('demo');
  }
}
