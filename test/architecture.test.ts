import * as fs from 'node:fs';
import * as ts from 'typescript';
import * as path from 'node:path';
import { STORES } from '../src/providers/stores';

const SRC = path.resolve(__dirname, '..', 'src');
const PROVIDERS_DIR = path.join(SRC, 'providers');
const STORE_NEUTRAL = ['model', 'decorators', 'explain', 'core', 'runtime'];
const STORE_WORDS = /mongo|cassandra|cosmos|knex|redis/i;
/** Every folder under src/providers is a store: a new one is covered without editing this file. */
const PROVIDERS = fs
  .readdirSync(PROVIDERS_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function tsFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  // The compiler's own scan: `import … from`, `export … from`, `require()`, `import()` and a bare
  // `import '…'`, but not text that only looks like one inside a string (init's config templates).
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles.map((f) => f.fileName);
}

/** The relative imports of every file under `folder`, resolved to absolute paths (no extension). */
function resolvedImports(folder: string): Array<{ file: string; target: string }> {
  return tsFiles(path.join(SRC, folder)).flatMap((file) =>
    importsOf(file)
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => ({ file, target: path.resolve(path.dirname(file), spec) })),
  );
}

function isInside(target: string, folder: string): boolean {
  return target === folder || target.startsWith(folder + path.sep);
}

/** Imports from `folder` into a provider's own folder (only src/providers/*.ts are shared). */
function providerInternalImports(folder: string): string[] {
  return resolvedImports(folder)
    .filter(({ target }) => isInside(target, PROVIDERS_DIR) && path.dirname(target) !== PROVIDERS_DIR)
    .map(({ file, target }) => `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
}

/** `file:line: text` of each line of `files` that matches `pattern`. */
function linesMatching(files: readonly string[], pattern: { test(line: string): boolean }): string[] {
  return files.flatMap((file) =>
    fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((line, i) => ({ line, where: `${path.relative(SRC, file)}:${i + 1}` }))
      .filter(({ line }) => pattern.test(line))
      .map(({ where, line }) => `${where}: ${line.trim()}`),
  );
}

/** `file imports spec` for each import of `files` that matches `pattern`. */
function importsMatching(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    importsOf(file)
      .filter((spec) => pattern.test(spec))
      .map((spec) => `${path.relative(SRC, file)} imports ${spec}`),
  );
}

/** A src file's relative imports that are src files (type imports included), resolved as Node resolves them. */
function srcImportsOf(file: string, srcFiles: ReadonlySet<string>): string[] {
  const targets = importsOf(file)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.resolve(path.dirname(file), spec))
    .map((base) => [`${base}.ts`, path.join(base, 'index.ts'), base].find((candidate) => srcFiles.has(candidate)))
    .filter((target): target is string => target !== undefined);
  return [...new Set(targets)];
}

/** The import graph of src: every file and the src files it imports. */
function importGraph(): Map<string, string[]> {
  const files = tsFiles(SRC);
  const known = new Set(files);
  return new Map(files.map((file) => [file, srcImportsOf(file, known)]));
}

/** The strongly connected components of `graph` that hold a cycle (Tarjan's algorithm). */
function cyclicComponents(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return components;
}

/** One shortest cycle through the first file of `component`, as `a → b → a` (breadth first, inside it). */
function cycleThrough(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string {
  const start = component[0]!;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const route = [node];
        while (route[0] !== start) route.unshift(cameFrom.get(route[0]!)!);
        return [...route, start].map((file) => path.relative(SRC, file)).join(' → ');
      }
      if (inside.has(next) && !cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return component.map((file) => path.relative(SRC, file)).join(', ');
}

/**
 * src's layers, lowest first: a file imports its own layer and earlier ones, never a later one.
 * A layer is folders and files under src; a file belongs to the layer of its longest listed path,
 * so the plan and forecast data in core/ sit below the core's flow, and the contract below the
 * rest of providers/.
 */
const LAYERS: ReadonlyArray<{ readonly layer: string; readonly paths: readonly string[]; readonly why: string }> = [
  {
    layer: 'errors',
    paths: [
      'errors.ts',
      'error-codes.ts',
      'error-code-spec.ts',
      'error-codes',
      'secrets.ts',
      'package-version.ts',
      'shape-anchors.ts',
    ],
    why: 'the one code table and the leaf helpers every layer raises or uses',
  },
  { layer: 'model', paths: ['model'], why: 'the entity model and its TTL declarations, in no store’s terms' },
  { layer: 'decorators', paths: ['decorators'], why: 'write into the model; the model never reads them back' },
  {
    layer: 'plan data',
    paths: ['core/plan.ts', 'core/forecast.ts'],
    why: 'plans, steps and forecasts as plain data: what the contract returns and explain renders',
  },
  {
    layer: 'explain',
    paths: ['explain'],
    why: 'the explain vocabulary (Mechanism included) and the renderers of entries, plans, forecasts',
  },
  {
    layer: 'contract',
    paths: ['providers/contract.ts', 'providers/connection-patterns.ts'],
    why: 'what a store implements (its connection-error patterns too) and a caller passes, in the terms of the layers above',
  },
  {
    layer: 'runtime',
    paths: ['runtime'],
    why: 'argument checks and shells stores build the contract’s repositories from',
  },
  {
    layer: 'core',
    paths: ['core'],
    why: 'the plan flow (gate, consent, refusals) and value checks every store runs, on the contract and runtime',
  },
  {
    layer: 'store kit',
    paths: ['providers/store-descriptor.ts', 'providers/connection-target.ts', 'providers/connection-errors.ts'],
    why: 'the shared shapes a store folder declares itself with',
  },
  {
    layer: 'stores',
    paths: PROVIDERS.map((provider) => `providers/${provider}`),
    why: 'one folder per store, none importing another',
  },
  {
    layer: 'registry',
    paths: ['providers/registry.ts', 'providers/stores.ts', 'providers/url-openers.ts'],
    why: 'lists the stores, so it is the one place above all of them',
  },
  {
    layer: 'entry points',
    paths: ['connect.ts', 'explain-model.ts', 'config.ts', 'index.ts'],
    why: 'the public API, joining a model to the listed stores',
  },
  { layer: 'demo', paths: ['demo'], why: 'an example application on the public API' },
  { layer: 'cli', paths: ['cli'], why: 'the command line, on top of everything (it runs the demo)' },
];

/** The position in LAYERS of the layer `file` belongs to, or -1 when no layer lists it. */
function layerOf(file: string): number {
  const relative = path.relative(SRC, file).split(path.sep).join('/');
  let best = { at: -1, length: -1 };
  LAYERS.forEach(({ paths }, at) => {
    for (const listed of paths) {
      const covers = relative === listed || relative.startsWith(`${listed}/`);
      if (covers && listed.length > best.length) best = { at, length: listed.length };
    }
  });
  return best.at;
}

describe('import graph', () => {
  const graph = importGraph();

  test('src has no import cycle (type-only imports included)', () => {
    const cycles = cyclicComponents(graph).map((component) => {
      const members =
        component.length > 2
          ? ` (${component.length} files: ${component.map((file) => path.relative(SRC, file)).join(', ')})`
          : '';
      return `${cycleThrough(component, graph)}${members}`;
    });
    expect(cycles).toEqual([]);
  });

  test('every src file belongs to a layer of LAYERS', () => {
    const unplaced = [...graph.keys()].filter((file) => layerOf(file) === -1).map((file) => path.relative(SRC, file));
    expect(unplaced).toEqual([]);
  });

  test('no src file imports a later layer than its own', () => {
    const wrongWay = [...graph].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map(
          (target) =>
            `${path.relative(SRC, file)} (${LAYERS[layerOf(file)]?.layer}) imports ` +
            `${path.relative(SRC, target)} (${LAYERS[layerOf(target)]?.layer})`,
        ),
    );
    expect(wrongWay).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get(path.join(PROVIDERS_DIR, 'stores.ts'))).toContain(
      path.join(PROVIDERS_DIR, 'cosmos', 'descriptor.ts'),
    );
    expect(graph.get(path.join(SRC, 'explain', 'index.ts'))).toContain(path.join(SRC, 'explain', 'entry.ts'));
    expect(
      cyclicComponents(
        new Map([
          ['a', ['b']],
          ['b', ['a']],
          ['c', ['c']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b'], ['c']]);
    expect(layerOf(path.join(PROVIDERS_DIR, 'contract.ts'))).toBeLessThan(
      layerOf(path.join(SRC, 'runtime', 'touch.ts')),
    );
  });
});

describe('layering', () => {
  test.each(STORE_NEUTRAL)('src/%s names no store', (folder) => {
    expect(linesMatching(tsFiles(path.join(SRC, folder)), STORE_WORDS)).toEqual([]);
  });

  test.each(PROVIDERS)('src/providers/%s imports no other provider', (provider) => {
    const others = new RegExp(`(^|/)(${PROVIDERS.filter((p) => p !== provider).join('|')})(/|$)`);
    expect(importsMatching(tsFiles(path.join(SRC, 'providers', provider)), others)).toEqual([]);
  });

  test('store drivers are imported only inside their provider folder', () => {
    const drivers = /^(knex|better-sqlite3|pg|mysql2|mongodb|cassandra-driver|@azure\/cosmos|redis|ioredis)$/;
    const outside = tsFiles(SRC).filter(
      (file) => !PROVIDERS.some((p) => file.startsWith(path.join(SRC, 'providers', p) + path.sep)),
    );
    expect(importsMatching(outside, drivers)).toEqual([]);
  });

  test('src/model never imports src/decorators (decorators write into the model, not the other way)', () => {
    const decorators = path.join(SRC, 'decorators');
    const offenders = resolvedImports('model')
      .filter(({ target }) => isInside(target, decorators))
      .map(({ file, target }) => `${path.relative(SRC, file)} imports ${path.relative(SRC, target)}`);
    expect(offenders).toEqual([]);
  });

  // The CLI and the store-neutral layers reach a store only through the shared src/providers/*.ts
  // files (contract, connection-target, connection-errors, url-openers, registry, stores, store-descriptor).
  test.each(['cli', ...STORE_NEUTRAL])('src/%s imports no provider internals', (folder) => {
    expect(providerInternalImports(folder)).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(SRC, 'model')).length).toBeGreaterThan(3);
    expect(PROVIDERS).toEqual(expect.arrayContaining(['cosmos', 'cassandra', 'mongodb', 'relational']));
    expect(resolvedImports('cli').length).toBeGreaterThan(10);
    expect(importsOf(path.join(PROVIDERS_DIR, 'stores.ts'))).toContain('./cosmos/descriptor');
  });
});

describe('relational provider by SQL family', () => {
  const RELATIONAL = path.join(SRC, 'providers', 'relational');
  const inside = (file: string, folder: string) => file.startsWith(path.join(RELATIONAL, folder) + path.sep);

  /**
   * What only families/ may know: a branch on a family or dialect name, a table keyed by family
   * (or by dialect), an index by a family's name, and the pickers that turn a dialect into a
   * family's name or look a family up by it. Elsewhere code asks the family object that
   * sqlFamily(dialect) or familyOperations(dialect) hands out.
   */
  const FAMILY_KNOWLEDGE: readonly RegExp[] = [
    /(===|!==)\s*'(sqlite|postgres|mariadb|mysql)'|case\s+'(sqlite|postgres|mariadb|mysql)'/,
    /\bDialectFamily\b|\b(Record|Map)<\s*RelationalDialect\b|\bin\s+RelationalDialect\s*\]/,
    /\[[^\]\n]*\bfamily\.name\b[^\]\n]*\]/,
    /\b(familyOf|FAMILY_OF_DIALECT|SQL_FAMILIES|OPERATIONS)\b/,
  ];
  const knowsFamilies = (line: string) => FAMILY_KNOWLEDGE.some((p) => p.test(line));

  test('only families/ branches on, tabulates or picks SQL families (elsewhere: the family object is asked)', () => {
    const outside = tsFiles(RELATIONAL).filter((file) => !inside(file, 'families'));
    expect(linesMatching(outside, { test: knowsFamilies })).toEqual([]);
  });

  test('the family check recognises what it forbids', () => {
    const forbidden = [
      "if (dialect === 'mariadb') return;",
      "case 'postgres':",
      'const TYPES: Readonly<Record<DialectFamily, string>> = {',
      'const LABELS: Record<RelationalDialect, string> = {',
      'return SQL_FAMILIES[family].encodeInstant(date);',
      'const hint = HINTS[t.family.name];',
      'const name = familyOf(dialect);',
    ];
    const allowed = ['const family = sqlFamily(dialect);', 'return familyOperations(t.dialect).purgeRunner(c);'];
    expect(forbidden.filter((line) => !knowsFamilies(line))).toEqual([]);
    expect(allowed.filter(knowsFamilies)).toEqual([]);
  });

  test('only drivers/ imports a database driver', () => {
    const drivers = /^(better-sqlite3|pg|mysql2)(\/|$)/;
    expect(
      importsMatching(
        tsFiles(RELATIONAL).filter((file) => !inside(file, 'drivers')),
        drivers,
      ),
    ).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(tsFiles(path.join(RELATIONAL, 'families')).length).toBeGreaterThan(3);
    expect(tsFiles(path.join(RELATIONAL, 'drivers')).length).toBeGreaterThan(5);
  });
});

describe('provider file names', () => {
  /** One role, one file name: a reader who knows one provider finds the same part in every other. */
  const ROLE_FILES = [
    'index.ts', // the public exports of the provider
    'store.ts', // the connected store
    'session.ts', // the schema session (plan, apply, explain with a connection)
    'compile.ts', // model → the store's plain-data layout
    'plan.ts', // layout vs what the store holds → plan steps
    'steps.ts', // the plan step table keyed by step kind
    'semantics.ts', // the store's facts and phrases
    'descriptor.ts', // what the shared code knows of the store, listed in src/providers/stores.ts
    'explainer.ts', // the driver-free explainer its descriptor names
    'explain-entry.ts', // the ExplainEntry of one entity
    'repository.ts', // reads and writes of one entity
    'unit-of-work.ts', // the store's unit of work
    'from-url.ts', // opening the store from a connection URL
    'codec.ts', // a member value ⇄ the store's native value
  ];
  /** Names that meant different things in different providers: the role has its own name now. */
  const RETIRED_NAMES = ['guards.ts', 'values.ts', 'item-codec.ts', 'expiry.ts'];

  test.each(PROVIDERS)('src/providers/%s has every role file', (provider) => {
    const missing = ROLE_FILES.filter((file) => !fs.existsSync(path.join(PROVIDERS_DIR, provider, file)));
    expect(missing).toEqual([]);
  });

  test.each(PROVIDERS)('src/providers/%s uses no retired file name', (provider) => {
    const retired = tsFiles(path.join(PROVIDERS_DIR, provider))
      .filter((file) => RETIRED_NAMES.includes(path.basename(file)))
      .map((file) => path.relative(SRC, file));
    expect(retired).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(PROVIDERS.length).toBeGreaterThanOrEqual(5);
    expect(tsFiles(path.join(PROVIDERS_DIR, 'relational')).length).toBeGreaterThan(20);
  });
});

describe('store registry: a new store is its folder plus one line and its name in src/providers/stores.ts', () => {
  const STORES_FILE = path.join(PROVIDERS_DIR, 'stores.ts');
  const source = fs.existsSync(STORES_FILE) ? fs.readFileSync(STORES_FILE, 'utf8') : '';
  /** `import { descriptor as <name> } from './<folder>/descriptor';`, the one line per store. */
  const LISTING = /^import \{ descriptor as (\w+) \} from '\.\/([\w-]+)\/descriptor';$/;
  const imports = source.split('\n').filter((line) => line.startsWith('import'));
  /** The names in `export const STORES = [a, b, …]`, in their order (the order explain() and the CLI use). */
  const listed = (/^export const STORES = \[([^\]]*)\]/m.exec(source)?.[1] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');

  test("every import of stores.ts is one store's descriptor, under its folder name", () => {
    const misfits = imports.filter((line) => {
      const match = LISTING.exec(line);
      return !match || match[1] !== match[2];
    });
    expect(misfits).toEqual([]);
  });

  test('stores.ts imports exactly the folders under src/providers, each once', () => {
    const folders = imports.map((line) => LISTING.exec(line)?.[2] ?? line);
    expect([...folders].sort()).toEqual([...PROVIDERS].sort());
  });

  test('STORES lists every imported descriptor once, in an explicit order, each under its own name', () => {
    expect([...listed].sort()).toEqual([...PROVIDERS].sort());
    expect(STORES.map((descriptor) => descriptor.name)).toEqual(listed);
  });

  test('index.ts only at the top of a provider folder (the package exports every one as lifespan/<folder>)', () => {
    const nested = PROVIDERS.flatMap((provider) =>
      tsFiles(path.join(PROVIDERS_DIR, provider))
        .filter((file) => path.basename(file) === 'index.ts')
        .filter((file) => path.dirname(file) !== path.join(PROVIDERS_DIR, provider))
        .map((file) => path.relative(SRC, file)),
    );
    expect(nested).toEqual([]);
  });

  test('the checks see the files they guard', () => {
    expect(imports.length).toBeGreaterThanOrEqual(5);
    expect(listed.length).toBeGreaterThanOrEqual(5);
  });
});
