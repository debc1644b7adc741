import * as fs from 'node:fs';
import * as path from 'node:path';
import { LifespanError } from '../errors';
import type { Model } from '../model/types';
import type { OpenedStore } from '../providers/connection-target';
import type { Store } from '../providers/contract';
import { loadModule } from './load-module';

/** What `lifespan.config.ts` exports: the model and named store factories. */
export interface LifespanConfig {
  readonly model: Model;
  readonly stores?: Readonly<Record<string, StoreFactory>>;
}

/** Returns a Store, or an OpenedStore when the CLI should close the driver and mask secrets. */
export type StoreFactory = () => Store | OpenedStore | Promise<Store | OpenedStore>;

const DEFAULT_NAMES = ['lifespan.config.ts', 'lifespan.config.js', 'lifespan.config.cjs', 'lifespan.config.mjs'];

export function findConfigFile(explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) return path.resolve(cwd, explicit);
  return DEFAULT_NAMES.map((name) => path.join(cwd, name)).find((file) => fs.existsSync(file));
}

export async function loadConfig(file: string): Promise<LifespanConfig> {
  const exports = await loadModule(file);
  const candidate = (exports.default ?? exports) as Partial<LifespanConfig> & { default?: unknown };
  const config = (isConfig(candidate) ? candidate : candidate.default) as LifespanConfig | undefined;
  if (!isConfig(config)) {
    throw new LifespanError('CLI_BAD_CONFIG', `${file} does not export { model, stores }`, {
      hint: 'export default { model, stores: { main: () => new RelationalStore({ knex }) } }',
    });
  }
  return config;
}

function isConfig(value: unknown): value is LifespanConfig {
  const model = (value as { model?: { entities?: unknown } } | undefined)?.model;
  return typeof value === 'object' && value !== null && Array.isArray(model?.entities);
}

export function isOpenedStore(value: Store | OpenedStore): value is OpenedStore {
  return 'store' in value && 'dispose' in value;
}
