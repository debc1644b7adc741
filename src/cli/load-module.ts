import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LifespanError } from '../errors';
import { registerTypeScript } from './ts-register';

// TypeScript compiles `import()` to `require()` under CommonJS; .mjs files need the real one.
const dynamicImport = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

/** Loads a .js, .cjs, .mjs or .ts module by path and returns its exports. */
export async function loadModule(file: string): Promise<Record<string, unknown>> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) {
    throw new LifespanError('CLI_FILE_NOT_FOUND', `no file at ${absolute}`, {
      hint: 'check the path of the models file',
    });
  }
  const extension = path.extname(absolute);
  if (extension === '.mjs') return (await dynamicImport(pathToFileURL(absolute).href)) as Record<string, unknown>;
  if (extension === '.ts' || extension === '.mts' || extension === '.cts') registerTypeScript();
  else if (extension !== '.js' && extension !== '.cjs') {
    throw new LifespanError('CLI_UNSUPPORTED_FILE', `cannot load '${extension}' files`, {
      hint: 'use a .js, .cjs, .mjs or .ts file',
    });
  }
  try {
    return require(absolute) as Record<string, unknown>;
  } catch (error) {
    if (isModelError(error)) throw error;
    throw new LifespanError('CLI_LOAD_FAILED', `loading ${absolute} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/** A ModelError, possibly from another copy of the library (the models file's own import). */
export function isModelError(error: unknown): error is Error & { problems: unknown[] } {
  return (
    error instanceof Error && error.name === 'ModelError' && Array.isArray((error as { problems?: unknown }).problems)
  );
}
