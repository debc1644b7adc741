import { LifespanError } from '../errors';
import type { Model } from '../model/types';
import { loadModule } from './load-module';

/** The built Model a models file exports as `model` or as its default export. */
export async function loadModel(file: string): Promise<Model> {
  const exports = await loadModule(file);
  const candidates = [exports.model, exports.default, (exports.default as Record<string, unknown> | undefined)?.model];
  const model = candidates.find(isModel);
  if (!model) {
    throw new LifespanError('CLI_NO_MODEL', `${file} exports no built model`, {
      hint: 'export the result of new ModelBuilder()...build() as `model` or as the default export',
    });
  }
  return model;
}

function isModel(value: unknown): value is Model {
  return typeof value === 'object' && value !== null && Array.isArray((value as { entities?: unknown }).entities);
}
