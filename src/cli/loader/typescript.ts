import * as path from 'node:path';
import { createRequire } from 'node:module';
import { LifespanError } from '../../errors';

type TypeScript = typeof import('typescript');

let cached: TypeScript | undefined;

/** The project's own TypeScript (so its version compiles its code), else the one next to lifespan. */
export function loadTypeScript(near: string): TypeScript {
  if (cached) return cached;
  for (const from of [path.join(near, 'noop.js'), __filename]) {
    try {
      cached = createRequire(from)('typescript') as TypeScript;
      return cached;
    } catch {
      // try the next place
    }
  }
  throw new LifespanError('CLI_TYPESCRIPT_MISSING', 'loading a .ts/.mts/.cts file needs the typescript package', {
    hint: 'npm install --save-dev typescript, or point the CLI at the compiled .js file',
  });
}

type CompilerOptions = import('typescript').CompilerOptions;

/** Legacy decorators with metadata: what a file outside any tsconfig gets (lifespan's decorators read both). */
const NO_TSCONFIG: CompilerOptions = { experimentalDecorators: true, emitDecoratorMetadata: true };

const configs = new Map<string, CompilerOptions>();

/**
 * The compiler options of the tsconfig.json that governs `file` (extends resolved), cached per
 * folder. Its decorator settings are kept as they are: a tsconfig without experimentalDecorators
 * means TC39 decorators, as tsc compiles them.
 */
export function compilerOptionsFor(ts: TypeScript, file: string): CompilerOptions {
  const dir = path.dirname(file);
  const known = configs.get(dir);
  if (known) return known;
  const configFile = ts.findConfigFile(dir, ts.sys.fileExists, 'tsconfig.json');
  let options = NO_TSCONFIG;
  if (configFile) {
    const read = ts.readConfigFile(configFile, ts.sys.readFile);
    options = ts.parseJsonConfigFileContent(read.config ?? {}, ts.sys, path.dirname(configFile)).options;
  }
  configs.set(dir, options);
  return options;
}

/**
 * Transpiles one file with the project's decorator settings (legacy with design:type metadata, or
 * TC39), with an inline source map so stacks show source lines.
 */
export function transpile(file: string, source: string, format: 'module' | 'commonjs'): string {
  const ts = loadTypeScript(path.dirname(file));
  const project = compilerOptionsFor(ts, file);
  const output = ts.transpileModule(source, {
    fileName: file,
    compilerOptions: {
      ...project,
      module: format === 'module' ? ts.ModuleKind.ESNext : ts.ModuleKind.CommonJS,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: project.target ?? ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: false,
      esModuleInterop: true,
      sourceMap: false,
      inlineSourceMap: true,
      inlineSources: true,
      declaration: false,
      noEmit: false,
    },
  });
  return output.outputText;
}

const TS_SOURCE = /\.(ts|mts|cts|tsx)$/;

/**
 * Where TypeScript itself would resolve `specifier` from `parent`: NodeNext `./x.js` → `./x.ts`,
 * tsconfig `paths`; undefined when it finds no source file (Node's own resolution then applies).
 */
export function resolveWithTypeScript(specifier: string, parent: string): string | undefined {
  const ts = loadTypeScript(path.dirname(parent));
  const options = compilerOptionsFor(ts, parent);
  const resolved = ts.resolveModuleName(specifier, parent, options, ts.sys).resolvedModule;
  if (!resolved || resolved.isExternalLibraryImport) return undefined;
  const file = resolved.resolvedFileName;
  return TS_SOURCE.test(file) && !file.endsWith('.d.ts') && !/\.d\.[mc]ts$/.test(file) ? file : undefined;
}
