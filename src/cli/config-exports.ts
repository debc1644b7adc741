import type { LifespanConfig } from '../config';
import { LifespanError } from '../errors';

/** The export shapes a config module may use, as the error names them. */
export const CONFIG_SHAPES =
  'export default { model, stores } (or defineConfig({ … })), export const config = { model, stores }, ' +
  'or export const model = …; export const stores = { … } (a default export may leave out what a named export gives)';

type Exports = Record<string, unknown>;

/**
 * The one config a module's exports mean. The default export or a named `config` is the config;
 * a named `model` / `stores` fills in what it leaves out (`export const model = …; export default
 * { model, stores }` is the common case: the application imports the model too). Two exports
 * that give one part differently have no one meaning and are refused, naming both.
 */
export function configFromExports(namespace: Exports, file: string): LifespanConfig {
  const exported = moduleExports(namespace);
  const byDefault = asConfigObject(exported['default']);
  const byName = asConfigObject(exported['config']);
  if (byDefault && byName && byDefault !== byName) {
    throw ambiguous(file, 'the default export and the named export `config` are two configs');
  }
  const base = byDefault ?? byName ?? {};
  const model = pick(file, 'model', base['model'] ?? modelOfDefault(exported['default']), exported['model']);
  const stores = pick(file, 'stores', base['stores'], exported['stores']);
  if (!isModel(model)) {
    throw new LifespanError('CLI_BAD_CONFIG', `${file} exports no built model`, {
      hint: `${CONFIG_SHAPES}; the model is the result of new ModelBuilder()…build()`,
    });
  }
  if (stores !== undefined && (typeof stores !== 'object' || stores === null || Array.isArray(stores))) {
    throw new LifespanError('CLI_BAD_CONFIG', `stores in ${file} is not an object of store factories`, {
      hint: 'write stores: { main: () => new RelationalStore({ knex }) }',
    });
  }
  return { model, ...(stores ? { stores: stores as LifespanConfig['stores'] } : {}) } as LifespanConfig;
}

/**
 * A CommonJS module compiled from TypeScript (`exports.default = …; exports.model = …`) arrives
 * through import() as `{ default: module.exports }`: its own exports are the ones that count.
 */
function moduleExports(namespace: Exports): Exports {
  const inner = namespace['default'] as Exports | undefined;
  if (typeof inner === 'object' && inner !== null && (inner as { __esModule?: unknown }).__esModule === true) {
    return inner;
  }
  return namespace;
}

function asConfigObject(value: unknown): Exports | undefined {
  if (typeof value !== 'object' || value === null || isModel(value)) return undefined;
  const v = value as Exports;
  return 'model' in v || 'stores' in v ? v : undefined;
}

/** `export default model` next to `export const stores`: the default export is the model itself. */
function modelOfDefault(value: unknown): unknown {
  return isModel(value) ? value : undefined;
}

function pick(file: string, part: 'model' | 'stores', inConfig: unknown, named: unknown): unknown {
  if (inConfig !== undefined && named !== undefined && inConfig !== named) {
    throw ambiguous(file, `the config's ${part} and the named export \`${part}\` are different values`);
  }
  return inConfig ?? named;
}

function ambiguous(file: string, what: string): LifespanError {
  return new LifespanError('CLI_BAD_CONFIG', `${file} has two meanings: ${what}`, {
    hint: `export one of them (or the same value under both names): ${CONFIG_SHAPES}`,
  });
}

function isModel(value: unknown): value is LifespanConfig['model'] {
  return typeof value === 'object' && value !== null && Array.isArray((value as { entities?: unknown }).entities);
}
