import { explain } from '../../explain-model';
import { loadModel } from '../load-model';
import { parseFormat, parseStores } from '../options';

export interface ExplainCommandOptions {
  readonly store?: string;
  readonly format?: string;
  readonly emulate?: boolean;
}

/** `lifespan explain <models-file>`: what each store will natively do with the model's TTLs. */
export async function explainCommand(file: string, options: ExplainCommandOptions): Promise<string> {
  const stores = parseStores(options.store);
  const format = parseFormat(options.format);
  const model = await loadModel(file);
  const report = explain(model, { stores, relational: { ttl: options.emulate ? 'emulate' : 'ignore' } });
  return report.render(format);
}
