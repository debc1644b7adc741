import * as path from 'node:path';
import { explain } from '../../explain-model';
import { loadModel } from '../load-model';

/** The examples shipped with the package, explained for every store (no server needed). */
export function examplesFile(): string {
  // dist/cli/commands → repo root; src/cli/commands under ts-jest → repo root as well.
  return path.resolve(__dirname, '..', '..', '..', 'examples', 'models.ts');
}

export async function demoCommand(file: string, log: (line: string) => void): Promise<void> {
  const model = await loadModel(examplesFile());
  log('# What each store will do with the example models\n');
  log(explain(model).toText());
  log('# The same models on the relational store with ttl: emulate\n');
  log(explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } }).toText());
  void file;
}
