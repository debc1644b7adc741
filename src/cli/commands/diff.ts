import * as path from 'node:path';
import { LifespanError } from '../../errors';
import { renderPlans } from '../../explain/render-plan';
import type { StoreName } from '../../providers/registry';
import { EXIT_DRIFT, EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { loadConfig } from '../config';
import { loadModel } from '../load-model';
import { parseFormat, parseStores } from '../options';
import { changed, compareSnapshots } from '../review/compare';
import { atGitRef, currentCommit } from '../review/git-base';
import { readSnapshot, serialize, snapshotOf, type Snapshot } from '../review/snapshot-file';
import { resolveModel } from '../targets';

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

const DEFAULT_SNAPSHOT = 'lifespan.snapshot.json';

const COUNTS_NOTE =
  'Records affected: not known offline. At deploy, `lifespan plan --counts` against the live store counts them.';

/**
 * `lifespan diff`: what the model change does per store, without connecting to any store — against
 * the committed snapshot file, or against the models at a git ref (--base).
 */
export async function diffCommand(options: DiffCommandOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format);
  // main.ts gives --file its default, so only another path counts as given with --base.
  if (options.base !== undefined && options.file !== undefined && options.file !== DEFAULT_SNAPSHOT) {
    throw new LifespanError('CLI_BAD_OPTIONS', '--file and --base compare against different things; give one', {
      hint: '--file <snapshot> compares against a committed snapshot, --base <git ref> against the models at that ref',
    });
  }
  const { model, file } = await resolveModel(options);
  const snapshotFile = path.resolve(options.file ?? DEFAULT_SNAPSHOT);
  let before: Snapshot;
  let against: string;
  if (options.base !== undefined) {
    const stores = parseStores(options.store);
    const ttl = options.emulate ? 'emulate' : 'ignore';
    const fromConfig = options.models === undefined;
    before = await atGitRef(options.base, file, async (oldFile) => {
      const oldModel = fromConfig ? (await loadConfig(oldFile)).model : await loadModel(oldFile);
      return snapshotOf(oldModel, stores, ttl);
    });
    against = `git ${options.base}`;
  } else {
    before = readSnapshot(snapshotFile);
    against = `snapshot ${path.relative(process.cwd(), snapshotFile)}`;
  }
  const stores = (options.store ? parseStores(options.store) : before.stores) as StoreName[];
  const ttl = options.emulate ? 'emulate' : before.relationalTtl;
  if (options.base === undefined) checkMatches(before, stores, ttl, against);
  before = only(before, stores);
  const after = snapshotOf(model, stores, ttl);
  const plans = compareSnapshots(before, after, against);
  const context = {
    modelsFile: path.relative(process.cwd(), file),
    against,
    ...(currentCommit() ? { commit: currentCommit() as string } : {}),
  };
  const rendered = renderPlans(plans, format, context);
  if (format === 'json') io.out(rendered);
  else io.out(`${rendered}${format === 'markdown' ? '\n' : ''}${COUNTS_NOTE}\n`);
  const stale = options.base === undefined && serialize(after) !== serialize(before);
  if (options.check && (changed(plans) || stale)) {
    io.err(
      options.base === undefined
        ? `the model changed and ${path.relative(process.cwd(), snapshotFile)} was not updated: run lifespan snapshot and commit the file with the change\n`
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
function checkMatches(
  snapshot: Snapshot,
  stores: readonly StoreName[],
  ttl: 'ignore' | 'emulate',
  against: string,
): void {
  const missing = stores.filter((s) => !snapshot.stores.includes(s));
  if (missing.length > 0) {
    throw new LifespanError(
      'CLI_SNAPSHOT_MISMATCH',
      `the ${against} has no ${missing.join(', ')} entries (it has ${snapshot.stores.join(', ') || 'none'})`,
      {
        hint: `choose --store from ${snapshot.stores.join(',')}, or run lifespan snapshot --store ${stores.join(',')} and commit the file`,
      },
    );
  }
  if (stores.includes('relational') && ttl !== snapshot.relationalTtl) {
    throw new LifespanError(
      'CLI_SNAPSHOT_MISMATCH',
      `the ${against} was made with relational TTL '${snapshot.relationalTtl}', not '${ttl}'`,
      {
        hint: `run diff ${snapshot.relationalTtl === 'emulate' ? 'with' : 'without'} --emulate, or regenerate the snapshot with the option you use`,
      },
    );
  }
}
