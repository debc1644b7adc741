import * as fs from 'node:fs';
import { LifespanError } from '../../errors';
import type { ExplainEntry } from '../../explain/entry';
import { explain } from '../../explain-model';
import type { Model } from '../../model/types';
import type { StoreName } from '../../providers/contract';

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
  readonly relationalTtl: 'ignore' | 'emulate';
  readonly entries: readonly SnapshotEntry[];
}

/** The model compiled for each store kind, offline; stable (no time, sorted) so it diffs well in git. */
export function snapshotOf(model: Model, stores: readonly StoreName[], relationalTtl: 'ignore' | 'emulate'): Snapshot {
  const report = explain(model, { stores, relational: { ttl: relationalTtl } });
  const entries = report.entries.map(toSnapshotEntry);
  entries.sort((a, b) => `${a.store}\u0000${a.entity}`.localeCompare(`${b.store}\u0000${b.entity}`));
  return { version: SNAPSHOT_VERSION, stores: [...stores], relationalTtl, entries };
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
  let parsed: Partial<Snapshot>;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Snapshot>;
  } catch {
    parsed = {};
  }
  if (parsed.version !== SNAPSHOT_VERSION || !Array.isArray(parsed.entries) || !Array.isArray(parsed.stores)) {
    throw new LifespanError('CLI_BAD_SNAPSHOT', `${file} is not a lifespan snapshot (version ${SNAPSHOT_VERSION})`, {
      hint: 'regenerate it with lifespan snapshot (a merge conflict in the file is resolved the same way)',
    });
  }
  return parsed as Snapshot;
}
