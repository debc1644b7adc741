/**
 * Node module customization hooks (module.register) for ESM projects: `.ts`/`.mts` sources,
 * NodeNext `./x.js` specifiers that name `./x.ts`, and tsconfig `paths`. `.cts` and `.ts` in a
 * CommonJS package go to the CommonJS loader, which the require hook in register.ts serves.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolveWithTypeScript, transpile } from './typescript';

interface ResolveContext {
  readonly parentURL?: string;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null }>;
interface LoadResult {
  format: string;
  source?: string | Buffer | null;
  shortCircuit?: boolean;
}
type NextLoad = (url: string, context: unknown) => Promise<LoadResult>;

export async function resolve(specifier: string, context: ResolveContext, next: NextResolve) {
  const parent = context.parentURL?.startsWith('file:') ? fileURLToPath(context.parentURL) : undefined;
  if (parent && /\.(ts|mts|cts)$/.test(parent)) {
    const source = resolveWithTypeScript(specifier, parent);
    if (source) return { url: pathToFileURL(source).href, shortCircuit: true };
  }
  return next(specifier, context);
}

export async function load(url: string, context: unknown, next: NextLoad): Promise<LoadResult> {
  if (!url.startsWith('file:') || !/\.(ts|mts|cts)$/.test(url)) return next(url, context);
  const file = fileURLToPath(url);
  const format = formatOf(file);
  // CommonJS: no source, so Node runs the (hooked) CommonJS loader, where require() works as usual.
  if (format === 'commonjs') return { format, shortCircuit: true };
  return { format, source: transpile(file, fs.readFileSync(file, 'utf8'), 'module'), shortCircuit: true };
}

/** .mts is ESM, .cts CommonJS, .ts whatever the nearest package.json "type" says. */
export function formatOf(file: string): 'module' | 'commonjs' {
  if (file.endsWith('.mts')) return 'module';
  if (file.endsWith('.cts')) return 'commonjs';
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { type?: string }).type === 'module'
        ? 'module'
        : 'commonjs';
    }
    if (path.dirname(dir) === dir) return 'commonjs';
  }
}
