import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LifespanConfig, StoreFactoryResult } from '../config';
import { LifespanError } from '../errors';
import type { OpenedStore } from '../providers/connection-target';
import type { Store } from '../providers/contract';
import { configFromExports } from './config-exports';
import { loadModule } from './load-module';

export type { LifespanConfig } from '../config';

export const DEFAULT_NAMES = [
  'lifespan.config.ts',
  'lifespan.config.mts',
  'lifespan.config.cts',
  'lifespan.config.js',
  'lifespan.config.mjs',
  'lifespan.config.cjs',
];

/**
 * The config file: --config when given, else the first of DEFAULT_NAMES in the current folder or
 * a folder above it, up to the package root (the first folder with a package.json), so a command
 * run in a subfolder of the project finds the project's config.
 */
export function findConfigFile(explicit: string | undefined, cwd = process.cwd()): string | undefined {
  if (explicit !== undefined) return path.resolve(cwd, explicit);
  for (let folder = path.resolve(cwd); ; folder = path.dirname(folder)) {
    const found = DEFAULT_NAMES.map((name) => path.join(folder, name)).find((file) => fs.existsSync(file));
    if (found) return found;
    const atRoot = fs.existsSync(path.join(folder, 'package.json')) || path.dirname(folder) === folder;
    if (atRoot) return undefined;
  }
}

/**
 * Loads the config module after the `.env` beside it (Node's own process.loadEnvFile: a variable
 * already set in the environment wins), so factories read the project's settings as the
 * application does; `note` is told which file was loaded.
 */
export async function loadConfig(
  file: string,
  note: (line: string) => void = () => undefined,
): Promise<LifespanConfig> {
  const envFile = path.join(path.dirname(file), '.env');
  if (fs.existsSync(envFile)) {
    loadEnvFileKeepingSet(envFile);
    note(`loaded ${path.relative(process.cwd(), envFile) || envFile} (beside the config)`);
  }
  return configFromExports(await loadModule(file), file);
}

/** process.loadEnvFile overwrites set variables; the environment a command runs in should win. */
function loadEnvFileKeepingSet(file: string): void {
  const before = { ...process.env };
  try {
    process.loadEnvFile(file);
  } catch (error) {
    throw new LifespanError('CLI_BAD_CONFIG', `cannot read ${file}: ${(error as Error).message}`, {
      hint: 'fix the .env file beside the config (KEY=value lines) or remove it',
    });
  }
  for (const [key, value] of Object.entries(before)) process.env[key] = value;
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
