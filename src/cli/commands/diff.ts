import { LifespanError } from '../../errors';
import { renderPlans } from '../../explain/render-plan';
import { dialectLabel } from '../review/sql-vocabulary';
import type { StoreName } from '../../providers/registry';
import { EXIT_DRIFT, EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { loadConfig } from '../config';
import { loadModel } from '../load-model';
import { offlineChoice, type OfflineChoice } from '../offline-stores';
import { parseFormat } from '../options';
import { changed, compareSnapshots } from '../review/compare';
import { atGitRef, workingTree } from '../review/git-base';
import { dialectOf, readSnapshot, serialize, snapshotOf, type Snapshot } from '../review/snapshot-file';
import { defaultSnapshotFile, resolveModel } from '../targets';
import { shown } from '../invocation';

export interface DiffCommandOptions {
  readonly config?: string;
  readonly models?: string;
  readonly file?: string;
  readonly base?: string;
  readonly store?: string;
  readonly emulate?: boolean;
  readonly format?: string;
  readonly check?: boolean;
}

const COUNTS_NOTE =
  'Records affected: not known offline. At deploy, `lifespan plan --counts` against the live store counts them.';

/**
 * `lifespan diff`: what the model change does per store, without connecting to any store — against
 * the committed snapshot file, or against the models at a git ref (--base). The store kinds are
 * the config's stores, else the snapshot's, unless --store / --emulate choose them.
 */
export async function diffCommand(options: DiffCommandOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format);
  if (options.base !== undefined && options.file !== undefined) {
    throw new LifespanError('CLI_BAD_OPTIONS', '--file and --base compare against different things; give one', {
      hint: '--file <snapshot> compares against a committed snapshot, --base <git ref> against the models at that ref',
    });
  }
  const { model, file, config, configFile } = await resolveModel(options, false, io);
  const configured = await offlineChoice(options, config, configFile && shown(configFile), io);
  const snapshotFile = options.file ?? defaultSnapshotFile(configFile, options.config !== undefined);
  let before: Snapshot;
  let against: string;
  let choice: OfflineChoice = configured;
  let notAtBase: string | undefined;
  if (options.base !== undefined) {
    const fromConfig = options.models === undefined;
    before = await atGitRef(options.base, file, async (oldFile) => {
      // The models file is new in this change: the base had no model, so every entity is new.
      if (oldFile === undefined) {
        notAtBase = `${shown(file)} is not at ${options.base}: compared with an empty model`;
        return snapshotOf({ entities: [] } as never, choice);
      }
      const oldModel = fromConfig
        ? (await loadConfig(oldFile, { masker: io.masker, enterFolder: false })).model
        : await loadModel(oldFile);
      return snapshotOf(oldModel, choice);
    });
    against = `git ${options.base}`;
  } else {
    before = readSnapshot(snapshotFile);
    against = `snapshot ${shown(snapshotFile)}`;
    // No config with stores and no flags: the snapshot says which kinds it holds.
    if (configured.source === 'default') choice = { ...configured, stores: before.stores };
    // --store alone keeps the snapshot's relational settings (--emulate is the flag that changes them).
    if (configured.source === 'default' || (configured.source === 'flags' && !options.emulate)) {
      choice = { ...choice, relationalTtl: before.relationalTtl, relationalDialect: dialectOf(before) };
    }
    checkMatches(before, choice, against);
  }
  before = only(before, choice.stores);
  const after = snapshotOf(model, choice);
  const plans = compareSnapshots(before, after, against);
  // The title's "uncommitted" mark is about the files the report is made from.
  const madeFrom = [...new Set([file, configFile].filter((f): f is string => f !== undefined))];
  const context = { modelsFile: shown(file), against, ...workingTree(process.cwd(), madeFrom) };
  const rendered = renderPlans(plans, format, context);
  if (format === 'json') io.out(rendered);
  else {
    const said = [notAtBase, choice.said].map((line) => (line ? `${line}\n` : '')).join('');
    io.out(`${rendered}${format === 'markdown' ? '\n' : ''}${said}${COUNTS_NOTE}\n`);
  }
  const stale = options.base === undefined && serialize(after) !== serialize(before);
  if (options.check && (changed(plans) || stale)) {
    io.err(
      options.base === undefined
        ? `the model changed and ${shown(snapshotFile)} was not updated: run lifespan snapshot and commit the file with the change\n`
        : `the model differs from ${options.base}\n`,
    );
    return EXIT_DRIFT;
  }
  return EXIT_OK;
}

/** The snapshot cut down to the chosen store kinds, so a change elsewhere is not reported as one here. */
function only(snapshot: Snapshot, stores: readonly StoreName[]): Snapshot {
  return {
    ...snapshot,
    stores: [...stores],
    entries: snapshot.entries.filter((e) => stores.includes(e.store as StoreName)),
  };
}

/** A snapshot made with other options cannot say what changed: every entity would look new or changed. */
function checkMatches(snapshot: Snapshot, choice: OfflineChoice, against: string): void {
  const { stores } = choice;
  const missing = stores.filter((s) => !snapshot.stores.includes(s));
  const fix =
    choice.source === 'config'
      ? 'run lifespan snapshot (it takes the config’s stores) and commit the file'
      : `choose --store from ${snapshot.stores.join(',')}, or run lifespan snapshot --store ${stores.join(',')} and commit the file`;
  if (missing.length > 0) {
    throw new LifespanError(
      'CLI_SNAPSHOT_MISMATCH',
      `the ${against} has no ${missing.join(', ')} entries (it has ${snapshot.stores.join(', ') || 'none'})`,
      { hint: fix },
    );
  }
  if (!stores.includes('relational')) return;
  if (choice.relationalTtl !== snapshot.relationalTtl) {
    throw new LifespanError(
      'CLI_SNAPSHOT_MISMATCH',
      `the ${against} was made with relational TTL '${snapshot.relationalTtl}', not '${choice.relationalTtl}'`,
      {
        hint:
          choice.source === 'config'
            ? fix
            : `run diff ${snapshot.relationalTtl === 'emulate' ? 'with' : 'without'} --emulate, or regenerate the snapshot with the option you use`,
      },
    );
  }
  if (choice.relationalDialect !== dialectOf(snapshot)) {
    throw new LifespanError(
      'CLI_SNAPSHOT_MISMATCH',
      `the ${against} holds ${dialectLabel(dialectOf(snapshot))} SQL, not ${dialectLabel(choice.relationalDialect)}`,
      {
        hint:
          snapshot.relationalDialect === undefined
            ? `the snapshot names no SQL dialect (written before lifespan kept it, so it reads as SQLite's): re-run lifespan snapshot once and commit the file`
            : fix,
      },
    );
  }
}
