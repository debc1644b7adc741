import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { offlineChoice } from '../offline-stores';
import { snapshotOf, writeSnapshot } from '../review/snapshot-file';
import { defaultSnapshotFile, resolveModel } from '../targets';
import { shown } from '../invocation';

export interface SnapshotCommandOptions {
  readonly config?: string;
  readonly models?: string;
  readonly file?: string;
  readonly store?: string;
  readonly emulate?: boolean;
}

/**
 * `lifespan snapshot`: writes what each store kind will do with the model; commit it with the
 * code. The store kinds are the config's stores (with their TTL mode and SQL dialect) unless
 * --store / --emulate choose them.
 */
export async function snapshotCommand(options: SnapshotCommandOptions, io: Io): Promise<number> {
  const { model, config, configFile } = await resolveModel(options, false, io);
  const choice = await offlineChoice(options, config, configFile && shown(configFile), io);
  const file = options.file ?? defaultSnapshotFile(configFile);
  const snapshot = snapshotOf(model, choice);
  writeSnapshot(file, snapshot);
  if (choice.said) io.out(`${choice.said}\n`);
  io.out(`wrote ${shown(file)}: ${snapshot.entries.length} entity/store entries; commit it with the model\n`);
  return EXIT_OK;
}
