import * as path from 'node:path';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { parseStores } from '../options';
import { snapshotOf, writeSnapshot } from '../review/snapshot-file';
import { resolveModel } from '../targets';

export interface SnapshotCommandOptions {
  readonly config?: string;
  readonly models?: string;
  readonly file?: string;
  readonly store?: string;
  readonly emulate?: boolean;
}

/** `lifespan snapshot`: writes what each store kind will do with the model; commit it with the code. */
export async function snapshotCommand(options: SnapshotCommandOptions, io: Io): Promise<number> {
  const stores = parseStores(options.store);
  const { model } = await resolveModel(options);
  const file = path.resolve(options.file ?? 'lifespan.snapshot.json');
  const snapshot = snapshotOf(model, stores, options.emulate ? 'emulate' : 'ignore');
  writeSnapshot(file, snapshot);
  io.out(
    `wrote ${path.relative(process.cwd(), file) || file}: ${snapshot.entries.length} entity/store entries; commit it with the model\n`,
  );
  return EXIT_OK;
}
