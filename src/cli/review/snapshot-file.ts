import * as fs from 'node:fs';
import * as path from 'node:path';
import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import type { Model } from '../../model/types';
import { STORE_NAMES, type StoreName } from '../../providers/registry';
import { RELATIONAL_TTL_WORDS, SQL_DIALECTS, type RelationalTtlWord, type SqlDialect } from './sql-vocabulary';
import { explainFor, type OfflineChoice } from '../offline-stores';

export const SNAPSHOT_VERSION = 1;

/** What a committed snapshot keeps of one entity on one store: enough to show a change, nothing live. */
export interface SnapshotEntry {
  readonly store: string;
  readonly entity: string;
  readonly collection: string;
  readonly mechanism: string;
  readonly seconds: number | null;
  readonly countsFrom: string | null;
  readonly changeEffect: { readonly kind: string; readonly text: string };
  readonly commands: readonly string[];
}

export interface Snapshot {
  readonly version: number;
  readonly stores: readonly StoreName[];
  readonly relationalTtl: RelationalTtlWord;
  /** Whose SQL the relational entries are in; absent in snapshots written before it was kept (SQLite's). */
  readonly relationalDialect?: SqlDialect;
  readonly entries: readonly SnapshotEntry[];
}

/** The model compiled for each store kind, offline; stable (no time, sorted) so it diffs well in git. */
export function snapshotOf(model: Model, choice: OfflineChoice): Snapshot {
  const entries = explainFor(model, choice).entries.map(toSnapshotEntry);
  entries.sort((a, b) => `${a.store}\u0000${a.entity}`.localeCompare(`${b.store}\u0000${b.entity}`));
  const { stores, relationalTtl, relationalDialect } = choice;
  return {
    version: SNAPSHOT_VERSION,
    stores: [...stores],
    relationalTtl,
    ...(relationalDialect !== 'sqlite' ? { relationalDialect } : {}),
    entries,
  };
}

/** The SQL dialect of a snapshot's relational entries. */
export function dialectOf(snapshot: Snapshot): SqlDialect {
  return snapshot.relationalDialect ?? 'sqlite';
}

function toSnapshotEntry(e: ExplainEntry): SnapshotEntry {
  return {
    store: e.store,
    entity: e.entity,
    collection: e.collection,
    mechanism: e.mechanism,
    seconds: e.seconds,
    countsFrom: e.countsFrom,
    changeEffect: { kind: e.changeEffect.kind, text: e.changeEffect.text },
    commands: e.materializedBy.commands,
  };
}

export function serialize(snapshot: Snapshot): string {
  return JSON.stringify(snapshot, null, 2) + '\n';
}

export function readSnapshot(file: string): Snapshot {
  if (!fs.existsSync(file)) {
    throw new LifespanError('CLI_NO_SNAPSHOT', `no snapshot file at ${file}`, {
      hint: 'run lifespan snapshot and commit the file, or compare against a git ref with --base origin/main',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    throw badSnapshot(file, 'it is not JSON');
  }
  const problem = snapshotProblem(parsed);
  if (problem !== undefined) throw badSnapshot(file, problem);
  return parsed as Snapshot;
}

function badSnapshot(file: string, problem: string): LifespanError {
  return new LifespanError(
    'CLI_BAD_SNAPSHOT',
    `${file} is not a lifespan snapshot (version ${SNAPSHOT_VERSION}): ${problem}`,
    {
      hint: 'regenerate it with lifespan snapshot (a merge conflict in the file is resolved the same way)',
    },
  );
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isSecondsOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isInteger(v) && v >= -1);

/** What is wrong with a parsed snapshot, field by field, or undefined when it is sound. */
function snapshotProblem(s: unknown): string | undefined {
  if (!isRecord(s)) return 'the top level is not an object';
  if (s.version !== SNAPSHOT_VERSION) return `version is ${JSON.stringify(s.version)}`;
  if (!Array.isArray(s.stores) || !s.stores.every((n) => (STORE_NAMES as readonly unknown[]).includes(n))) {
    return `stores must list store kinds of ${STORE_NAMES.join(', ')}, not ${JSON.stringify(s.stores)}`;
  }
  if (!(RELATIONAL_TTL_WORDS as readonly unknown[]).includes(s.relationalTtl)) {
    return `relationalTtl must be one of ${RELATIONAL_TTL_WORDS.map((m) => `"${m}"`).join(', ')}, not ${JSON.stringify(s.relationalTtl)}`;
  }
  if (s.relationalDialect !== undefined && !(SQL_DIALECTS as readonly unknown[]).includes(s.relationalDialect)) {
    return `relationalDialect must be one of ${SQL_DIALECTS.join(', ')}, not ${JSON.stringify(s.relationalDialect)}`;
  }
  if (!Array.isArray(s.entries)) return 'entries is not a list';
  for (const [i, e] of s.entries.entries()) {
    const problem = entryProblem(e, s.stores as readonly unknown[]);
    if (problem !== undefined) return `entries[${i}]: ${problem}`;
  }
  return undefined;
}

function entryProblem(e: unknown, stores: readonly unknown[]): string | undefined {
  if (!isRecord(e)) return 'not an object';
  if (!stores.includes(e.store)) return `store ${JSON.stringify(e.store)} is not one of the snapshot's stores`;
  for (const field of ['entity', 'collection', 'mechanism'] as const) {
    if (!isString(e[field])) return `${field} is not a string`;
  }
  if (!isSecondsOrNull(e.seconds)) return `seconds must be a whole number or null, not ${JSON.stringify(e.seconds)}`;
  if (e.countsFrom !== null && !isString(e.countsFrom)) return 'countsFrom is not a string or null';
  const effect = e.changeEffect;
  if (!isRecord(effect) || !isString(effect.kind) || !isString(effect.text))
    return 'changeEffect is not { kind, text }';
  if (!Array.isArray(e.commands) || !e.commands.every(isString)) return 'commands is not a list of strings';
  return undefined;
}

/** Writes through a temporary file and a rename, so an interrupted run never leaves half a snapshot. */
export function writeSnapshot(file: string, snapshot: Snapshot): void {
  const folder = path.dirname(file);
  const temporary = path.join(folder, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(temporary, serialize(snapshot));
    fs.renameSync(temporary, file);
  } catch (error) {
    removeQuietly(temporary);
    const reason = (error as NodeJS.ErrnoException).code ?? 'write failed';
    throw new LifespanError('CLI_SNAPSHOT_WRITE', `cannot write the snapshot to ${file} (${reason})`, {
      hint: 'give --file a path in a folder you can write to',
    });
  }
}

/** Best effort: the folder itself may be what failed (a file in its place, no permission). */
function removeQuietly(file: string): void {
  try {
    fs.rmSync(file, { force: true });
  } catch {
    // nothing was written there
  }
}
