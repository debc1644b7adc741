import * as fs from 'node:fs';
import * as path from 'node:path';
import * as util from 'node:util';
import type { LifespanConfig, StoreFactoryResult } from '../config';
import { LifespanError } from '../errors';
import type { OpenedStore } from '../providers/connection-target';
import type { Store } from '../providers/contract';
import { configFromExports } from './config-exports';
import { invocationFolder, shown } from './invocation';
import type { Io } from './io';
import { loadModule } from './load-module';
import type { SecretMasker } from './mask';
import { SECRET_KEY } from '../secrets';

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
 * run in a subfolder of the project finds the project's config. The search never leaves the git
 * work tree or goes above $HOME, and without a package.json there it looks in the current folder
 * only: a stray /tmp/lifespan.config.ts is not the project's.
 */
export function findConfigFile(explicit: string | undefined, cwd = invocationFolder()): string | undefined {
  if (explicit !== undefined) return path.resolve(cwd, explicit);
  const start = path.resolve(cwd);
  const root = packageRoot(start) ?? start;
  for (let folder = start; ; folder = path.dirname(folder)) {
    const found = DEFAULT_NAMES.map((name) => path.join(folder, name)).find((file) => fs.existsSync(file));
    if (found) return found;
    if (folder === root || path.dirname(folder) === folder) return undefined;
  }
}

/**
 * The first folder from `start` upwards with a package.json, searched no higher than the git top
 * level (a folder holding .git) and $HOME; undefined when there is none within those bounds.
 */
export function packageRoot(start: string): string | undefined {
  const home = process.env.HOME ? path.resolve(process.env.HOME) : undefined;
  for (let folder = path.resolve(start); ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'package.json'))) return folder;
    const last = fs.existsSync(path.join(folder, '.git')) || folder === home || path.dirname(folder) === folder;
    if (last) return undefined;
  }
}

/**
 * Loads the config module after the `.env` beside it (Node's own process.loadEnvFile: a variable
 * already set in the environment wins), in the config's folder, so factories read the project's
 * settings as the application does; `note` is told which file was loaded. Path arguments of the
 * CLI must be resolved before (see invocation.ts).
 */
export async function loadConfig(file: string, options: LoadConfigOptions = {}): Promise<LifespanConfig> {
  const { note = () => undefined, masker, enterFolder = true } = options;
  const folder = path.dirname(file);
  const envFile = path.join(folder, '.env');
  if (fs.existsSync(envFile)) {
    loadEnvFileKeepingSet(envFile).forEach((value) => masker?.add(value));
    note(`loaded ${shown(envFile)} (beside the config)`);
  }
  // The config's relative paths (a SQLite file, a certificate) mean what they mean to the
  // application, which runs in the project folder, not in whatever subfolder the command ran in.
  if (enterFolder) process.chdir(folder);
  return configFromExports(await loadModule(file), file);
}

export interface LoadConfigOptions {
  /** Told which .env was loaded. */
  readonly note?: (line: string) => void;
  /** Learns the secret-looking values of the .env (PASSWORD, SECRET, TOKEN, KEY ...). */
  readonly masker?: SecretMasker | undefined;
  /** Work in the config's folder from now on (default); false for a config read only for its model. */
  readonly enterFolder?: boolean;
}

/**
 * The project's config (--config, else the lookup) loaded for a command, with its notes to stderr
 * and its secrets masked; both undefined when there is no config file.
 */
export async function loadProjectConfig(
  explicit: string | undefined,
  io: Pick<Io, 'err' | 'masker'>,
): Promise<{ config?: LifespanConfig; configFile?: string }> {
  const configFile = findConfigFile(explicit);
  if (configFile === undefined) return {};
  const note = (line: string) => io.err(`note: ${line}\n`);
  return { config: await loadConfig(configFile, { note, masker: io.masker }), configFile };
}

/** process.loadEnvFile overwrites set variables; the environment a command runs in should win. */
function loadEnvFileKeepingSet(file: string): string[] {
  const before = { ...process.env };
  let secrets: string[];
  try {
    process.loadEnvFile(file);
    const parsed = util.parseEnv(fs.readFileSync(file, 'utf8'));
    secrets = Object.entries(parsed)
      .filter(([key]) => SECRET_KEY.test(key))
      .map(([, value]) => value ?? '');
  } catch (error) {
    throw new LifespanError('CLI_BAD_CONFIG', `cannot read ${file}: ${(error as Error).message}`, {
      hint: 'fix the .env file beside the config (KEY=value lines) or remove it',
    });
  }
  for (const [key, value] of Object.entries(before)) process.env[key] = value;
  return secrets;
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
