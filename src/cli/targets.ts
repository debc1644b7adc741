import { LifespanError } from '../errors';
import type { Model } from '../model/types';
import type { OpenedStore } from '../providers/connection-target';
import { openerFor } from '../providers/url-openers';
import { findConfigFile, isOpenedStore, loadConfig } from './config';
import { loadModel } from './load-model';
import { displayUrl, SecretMasker } from './mask';

export interface TargetOptions {
  readonly config?: string;
  readonly store?: string;
  readonly url?: string;
  readonly models?: string;
}

export interface Target {
  readonly name: string;
  readonly opened: OpenedStore;
}

/** The model and the live stores a plan/apply/purge/explain run works on, and how to close them. */
export interface Targets {
  readonly model: Model;
  readonly targets: readonly Target[];
  readonly masker: SecretMasker;
  dispose(): Promise<void>;
}

export async function resolveTargets(options: TargetOptions): Promise<Targets> {
  const masker = new SecretMasker();
  const configFile = findConfigFile(options.config);
  const config = configFile ? await loadConfig(configFile) : undefined;
  const model = options.models ? await loadModel(options.models) : config?.model;
  if (!model) {
    throw new LifespanError('CLI_NO_MODEL', 'no model to work with', {
      hint: 'add a lifespan.config.ts exporting { model, stores }, pass --config, or pass --models <file> with --url',
    });
  }
  const targets: Target[] = [];
  const result: Targets = {
    model,
    targets,
    masker,
    async dispose() {
      await Promise.all(targets.map((t) => t.opened.dispose()));
    },
  };
  try {
    if (options.url) {
      masker.addUrl(options.url);
      const opened = await openerFor(options.url)(options.url);
      opened.secrets.forEach((s) => masker.add(s));
      targets.push({ name: displayUrl(options.url), opened });
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
      const made = await factory();
      const opened: OpenedStore = isOpenedStore(made) ? made : { store: made, secrets: [], dispose: async () => {} };
      opened.secrets.forEach((s) => masker.add(s));
      targets.push({ name, opened });
    }
    return result;
  } catch (error) {
    await result.dispose();
    throw error;
  }
}
