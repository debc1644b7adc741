import * as fs from 'node:fs';
import * as path from 'node:path';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { DEFAULT_NAMES, packageRoot } from '../config';
import { usage } from '../options';
import {
  CI_WORKFLOW,
  configSource,
  INIT_STORES,
  MODELS_EXAMPLE,
  STORE_TEMPLATES,
  type InitStore,
} from '../init/store-templates';
import { SNAPSHOT_FILE } from '../targets';
import { snapshotCommand } from './snapshot';

export interface InitCommandOptions {
  readonly store?: string;
}

const CONFIG_FILE = 'lifespan.config.ts';
const CI_FILE = path.join('.github', 'workflows', 'lifespan.yml');
const MODEL_FILES = ['src/models.ts', 'src/models.mts', 'src/models.js', 'src/models.mjs', 'models.ts', 'models.js'];

/**
 * `lifespan init --store sqlite,redis`: a typed lifespan.config.ts for those stores, an example
 * models file when the project has none, the first snapshot and a CI job. A file that exists is
 * kept as it is, never overwritten; every file is listed with what was done with it.
 */
export async function initCommand(options: InitCommandOptions, io: Io): Promise<number> {
  const stores = parseInitStores(options.store);
  // The files belong at the package root (where the config lookup looks), not in a subfolder.
  const root = packageRoot(process.cwd());
  if (root !== undefined && root !== process.cwd()) {
    process.chdir(root);
    io.out(`in ${root} (the package root)\n`);
  }
  const existingModels = MODEL_FILES.find((f) => fs.existsSync(f));
  const modelsFile = existingModels ?? 'src/models.ts';
  if (!existingModels) write(modelsFile, MODELS_EXAMPLE, io, 'an example model: replace it with your entities');
  else io.out(`kept ${existingModels} (exists): the config imports its \`model\` export\n`);
  const config = DEFAULT_NAMES.find((f) => fs.existsSync(f));
  if (config) io.out(`kept ${config} (exists; not overwritten)\n`);
  else write(CONFIG_FILE, configSource(stores, importOf(modelsFile)), io, `stores ${stores.join(', ')}`);
  write(CI_FILE, CI_WORKFLOW, io, 'the pull-request job: lifespan diff --check, the markdown diff in the job summary');
  ignoreLocalFiles(io);
  const packages = [...new Set(stores.flatMap((s) => STORE_TEMPLATES[s].packages))];
  try {
    if (fs.existsSync(SNAPSHOT_FILE)) io.out(`kept ${SNAPSHOT_FILE} (exists; not overwritten)\n`);
    else await snapshotCommand({ config: path.resolve(config ?? CONFIG_FILE) }, io);
  } finally {
    io.out(
      `next: npm install lifespan-orm ${packages.join(' ')}; set the connection variables (or a .env beside the config); ` +
        'lifespan plan, then lifespan apply; commit the files above\n',
    );
  }
  return EXIT_OK;
}

function parseInitStores(list: string | undefined): InitStore[] {
  const names = (list ?? 'sqlite')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(INIT_STORES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw usage(
      `init knows no store ${unknown.map((u) => `'${u}'`).join(', ') || "''"}`,
      `use --store with ${INIT_STORES.join(',')}`,
    );
  }
  return [...new Set(names)] as InitStore[];
}

/** The specifier the config imports a models file by, as NodeNext and CommonJS both resolve it. */
function importOf(file: string): string {
  const js = file.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs');
  return `./${js.split(path.sep).join('/')}`;
}

/** The .env (secrets) and SQLite files stay out of git: lines added to .gitignore, never rewritten. */
const IGNORED = ['.env', '*.db'];

function ignoreLocalFiles(io: Io): void {
  const file = '.gitignore';
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const lines = new Set(text.split(/\r?\n/).map((l) => l.trim()));
  const missing = IGNORED.filter((line) => !lines.has(line));
  if (missing.length === 0) return;
  fs.appendFileSync(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${missing.join('\n')}\n`);
  io.out(`${text === '' ? 'wrote' : 'added to'} ${file}: ${missing.join(', ')}\n`);
}

function write(file: string, text: string, io: Io, what: string): void {
  if (fs.existsSync(file)) {
    io.out(`kept ${file} (exists; not overwritten)\n`);
    return;
  }
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, text, { flag: 'wx' });
  io.out(`wrote ${file}: ${what}\n`);
}
