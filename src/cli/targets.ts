import * as path from 'node:path';
import { LifespanError, StoreError } from '../errors';
import type { Model } from '../model/types';
import { connectFailure, connectionError } from '../providers/connection-errors';
import type { OpenedStore } from '../providers/connection-target';
import { CONNECTION_ERRORS, connectionErrorsFor } from '../providers/registry';
import { openerFor, storeOfUrl } from '../providers/url-openers';
import { loadProjectConfig, toOpenedStore, type LifespanConfig } from './config';
import type { Io } from './io';
import { firstLine } from './first-line';
import { loadModel } from './load-model';
import { displayUrl, SecretMasker } from './mask';
import { fromInvocation } from './invocation';
import * as fs from 'node:fs';

export interface TargetOptions {
  readonly config?: string;
  readonly store?: string;
  readonly url?: string;
  readonly models?: string;
}

export interface Target {
  /** The config key, or the masked URL for --url. */
  readonly name: string;
  /** Where it points, secrets masked. */
  readonly where: string;
  readonly opened: OpenedStore;
}

/** The model and the live stores a plan/apply/purge/explain run works on, and how to close them. */
export interface Targets {
  readonly model: Model;
  readonly modelsFile: string | undefined;
  readonly targets: readonly Target[];
  readonly masker: SecretMasker;
  dispose(): Promise<void>;
}

/** What resolveModel found: the model, the file it came from, and the config when one was loaded. */
export interface ResolvedModel {
  readonly model: Model;
  readonly file: string;
  readonly config: LifespanConfig | undefined;
  readonly configFile: string | undefined;
}

/**
 * The model from --models, else from the config file; names the file it came from. The config
 * is loaded only when something in it is needed (the model, the stores) or --config names it:
 * a config that needs production settings must not break `diff --models` in CI. `io` is told
 * what was loaded besides the config (a .env) and learns the .env's secrets.
 */
export async function resolveModel(
  options: TargetOptions,
  needStores: boolean,
  io: Pick<Io, 'err' | 'masker'>,
): Promise<ResolvedModel> {
  const wanted = !options.models || needStores || options.config !== undefined;
  const { config, configFile } = wanted ? await loadProjectConfig(options.config, io) : {};
  const model = options.models ? await loadModel(options.models) : config?.model;
  const file = options.models ?? configFile;
  if (!model || file === undefined) {
    throw new LifespanError('CLI_NO_MODEL', 'no model to work with', {
      hint: 'add a lifespan.config.ts exporting { model, stores } (lifespan init writes one), pass --config, or pass --models <file> with --url',
    });
  }
  return { model, file, config, configFile };
}

export async function resolveTargets(
  options: TargetOptions,
  io: Io & { readonly masker: SecretMasker },
): Promise<Targets> {
  const { masker } = io;
  if (options.url) masker.addUrl(options.url);
  const { model, file, config } = await resolveModel(options, !options.url, io);
  const targets: Target[] = [];
  const result: Targets = {
    model,
    modelsFile: file,
    targets,
    masker,
    async dispose() {
      const failures = await Promise.allSettled(targets.map((t) => t.opened.dispose()));
      failures.forEach((f, i) => {
        if (f.status === 'rejected') throw disposeFailed(targets[i]?.name ?? '?', f.reason);
      });
    },
  };
  try {
    if (options.url) {
      const opened = await openUrl(options.url);
      opened.secrets.forEach((s) => masker.add(s));
      const name = displayUrl(options.url);
      targets.push({ name, where: opened.store.describe(), opened });
      return result;
    }
    const factories = config?.stores ?? {};
    const names = options.store ? [options.store] : Object.keys(factories);
    if (names.length === 0) {
      throw new LifespanError('CLI_NO_STORE', 'no store to work with', {
        hint: 'name stores in lifespan.config.ts ({ stores: { main: () => ... } }) or pass --url',
      });
    }
    for (const name of names) {
      const factory = factories[name];
      if (!factory) {
        throw new LifespanError('CLI_UNKNOWN_STORE', `no store named '${name}' in the config`, {
          hint: `configured stores: ${Object.keys(factories).join(', ') || 'none'}`,
        });
      }
      const opened = toOpenedStore(await runFactory(factory, name), name);
      opened.secrets.forEach((s) => masker.add(s));
      targets.push({ name, where: opened.store.describe(), opened });
    }
    return result;
  } catch (error) {
    await result.dispose().catch(() => undefined);
    throw error;
  }
}

/** Opens a --url target; a driver's connection failure becomes its typed StoreError. */
async function openUrl(url: string): Promise<OpenedStore> {
  const opener = openerFor(url);
  try {
    return await opener(url);
  } catch (error) {
    if (error instanceof LifespanError && !(error instanceof StoreError)) throw error;
    const store = storeOfUrl(url);
    const target = displayUrl(url);
    const patterns = connectionErrorsFor(store);
    throw (
      connectionError(error, store, target, patterns) ??
      connectFailure(error, store, target, 'check the URL and that the server is running', patterns)
    );
  }
}

export async function runFactory(
  factory: (context: { offline: boolean }) => unknown,
  name: string,
  offline = false,
): Promise<unknown> {
  if (typeof factory !== 'function') {
    throw new LifespanError('CLI_BAD_CONFIG', `stores.${name} in the config is not a function`, {
      hint: 'write stores: { main: () => new RelationalStore({ knex }) }',
    });
  }
  try {
    return await factory({ offline });
  } catch (error) {
    if (error instanceof LifespanError) throw error;
    // The one path that cannot know the store: the factory threw before it returned one (`name`
    // is its key in the config), so every listed store's patterns read the failure.
    throw (
      connectionError(error, name, `store '${name}'`, CONNECTION_ERRORS) ??
      new LifespanError('CLI_FACTORY_FAILED', `the factory of store '${name}' threw: ${firstLine(error)}`, {
        hint: 'fix the store factory in the config (run with --verbose for the stack)',
        cause: error,
      })
    );
  }
}

function disposeFailed(name: string, error: unknown): LifespanError {
  return new LifespanError('CLI_DISPOSE_FAILED', `closing store '${name}' failed: ${firstLine(error)}`, {
    hint: 'check the dispose() the store factory returned (run with --verbose for the stack)',
    cause: error,
  });
}

export const SNAPSHOT_FILE = 'lifespan.snapshot.json';

/**
 * The snapshot beside the config (found in a folder above, it is still the project's), else in the
 * folder the command ran in. With --config (`explicitConfig`), a snapshot not beside the config is
 * looked for in the folder the command ran in, where it was written before the config was named.
 */
export function defaultSnapshotFile(configFile: string | undefined, explicitConfig = false): string {
  const here = fromInvocation(SNAPSHOT_FILE);
  if (!configFile) return here;
  const beside = path.join(path.dirname(configFile), SNAPSHOT_FILE);
  return explicitConfig && !fs.existsSync(beside) && fs.existsSync(here) ? here : beside;
}
