import * as fs from 'node:fs';
import * as path from 'node:path';
import { explain } from '../../explain-model';
import { runRelationalDemo } from '../../providers/relational/demo';
import { loadModel } from '../load-model';

/** The examples shipped with the repository (examples/models.ts). */
export function examplesFile(): string {
  // dist/cli/commands (or src/cli/commands) → the repository root.
  return path.resolve(__dirname, '..', '..', '..', 'examples', 'models.ts');
}

/**
 * The main job on the embedded default, no server needed: explain the example models for every
 * store, then run them on a fresh SQLite file with emulated TTL and show expiry at work.
 */
export async function demoCommand(file: string, log: (line: string) => void): Promise<void> {
  const model = await loadModel(examplesFile());
  log('# 1. What each store will natively do with the example models (explain)\n');
  log(explain(model).toText());
  log('# 2. The relational store with ttl: emulate\n');
  log(explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } }).toText());
  log('# 3. Running it on SQLite\n');
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(`${file}${suffix}`, { force: true });
  await runRelationalDemo(log, file, model);
}
