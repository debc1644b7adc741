import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LifespanConfig, StoreFactoryResult } from '../config';
import { LifespanError } from '../errors';
import type { OpenedStore } from '../providers/connection-target';
import type { Store } from '../providers/contract';
import { loadModule } from './load-module';

export type { LifespanConfig } from '../config';

const DEFAULT_NAMES = [
  'lifespan.config.ts',
  'lifespan.config.mts',
  'lifespan.config.cts',
  'lifespan.config.js',
  'lifespan.config.mjs',
  'lifespan.config.cjs',
];

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
      hint: 'export default defineConfig({ model, stores: { main: () => new RelationalStore({ knex }) } })',
    });
  }
  return config;
}

function isConfig(value: unknown): value is LifespanConfig {
  const model = (value as { model?: { entities?: unknown } } | undefined)?.model;
  return typeof value === 'object' && value !== null && Array.isArray(model?.entities);
}

function isStore(value: unknown): value is Store {
  const v = value as Partial<Store> | null | undefined;
  return typeof v === 'object' && v !== null && typeof v.open === 'function' && typeof v.describe === 'function';
}

const SHAPES = 'a Store, { store }, { store, secrets }, { store, dispose } or { store, secrets, dispose }';

/** A factory's result in the one shape the CLI works with; anything else names the store and the shapes. */
export function toOpenedStore(made: StoreFactoryResult | unknown, name: string): OpenedStore {
  if (isStore(made)) return { store: made, secrets: [], dispose: async () => {} };
  const shaped = made as { store?: unknown; secrets?: unknown; dispose?: unknown } | null | undefined;
  const secrets = shaped?.secrets ?? [];
  const dispose = shaped?.dispose ?? (() => undefined);
  if (
    typeof shaped !== 'object' ||
    shaped === null ||
    !isStore(shaped.store) ||
    !Array.isArray(secrets) ||
    !secrets.every((s) => typeof s === 'string') ||
    typeof dispose !== 'function'
  ) {
    throw new LifespanError('CLI_BAD_FACTORY_RESULT', `the factory of store '${name}' returned ${describe(made)}`, {
      hint: `return ${SHAPES} (secrets: an array of strings, dispose: a function)`,
    });
  }
  return {
    store: shaped.store,
    secrets: secrets as string[],
    dispose: async () => {
      await (dispose as () => unknown).call(shaped);
    },
  };
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return String(value);
  const keys = Object.keys(value);
  return keys.length === 0 ? 'an empty object' : `an object with ${keys.map((k) => `'${k}'`).join(', ')}`;
}
