import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');

/** The folders under src/providers: each is a store, exported as `lifespan-orm/<folder>`. */
export const PROVIDER_FOLDERS: readonly string[] = fs
  .readdirSync(path.join(ROOT, 'src', 'providers'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every entry point of the package (the `exports` map of package.json) → its source file. */
export const ENTRY_POINTS: Readonly<Record<string, string>> = {
  'lifespan-orm': 'src/index.ts',
  ...Object.fromEntries(PROVIDER_FOLDERS.map((p) => [`lifespan-orm/${p}`, `src/providers/${p}/index.ts`])),
};

/**
 * The names an entry point exports, values and types alike, as the type checker sees them: the
 * API report the public-surface test pins.
 */
export function exportedNames(): Record<string, string[]> {
  const files = Object.values(ENTRY_POINTS).map((f) => path.join(ROOT, f));
  const program = ts.createProgram(files, {
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    Object.entries(ENTRY_POINTS).map(([entry, file]) => {
      const source = program.getSourceFile(path.join(ROOT, file));
      const symbol = source && checker.getSymbolAtLocation(source);
      const names = symbol ? checker.getExportsOfModule(symbol).map((s) => s.name) : [];
      return [entry, names.sort()];
    }),
  );
}
