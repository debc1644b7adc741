import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LifespanError } from '../errors';
import { firstLine } from './first-line';
import { registerLoader } from './loader/register';

// TypeScript compiles `import()` to `require()` under CommonJS; ESM files need the real one.
const dynamicImport = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

const EXTENSIONS = ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'];

/** Loads a config or models module by path (any of EXTENSIONS) and returns its exports. */
export async function loadModule(file: string): Promise<Record<string, unknown>> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) {
    throw new LifespanError('CLI_FILE_NOT_FOUND', `no file at ${absolute}`, {
      hint: 'check the path of the models or config file',
    });
  }
  const extension = path.extname(absolute);
  if (!EXTENSIONS.includes(extension)) {
    throw new LifespanError('CLI_UNSUPPORTED_FILE', `cannot load '${extension}' files`, {
      hint: `use a ${EXTENSIONS.join(', ')} file`,
    });
  }
  registerLoader();
  try {
    return (await dynamicImport(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    if (isModelError(error) || error instanceof LifespanError) throw error;
    // Raised on the ESM hooks thread, it arrives here as a plain Error that kept its code.
    if (error instanceof Error && (error as { code?: unknown }).code === 'CLI_TYPESCRIPT_MISSING') {
      throw new LifespanError('CLI_TYPESCRIPT_MISSING', 'loading a .ts/.mts/.cts file needs the typescript package', {
        hint: 'npm install --save-dev typescript, or point the CLI at the compiled .js file',
        cause: error,
      });
    }
    throw new LifespanError('CLI_LOAD_FAILED', `loading ${absolute} failed: ${firstLine(error)}`, {
      hint: 'the module threw while loading; run with --verbose for its stack (source lines)',
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
