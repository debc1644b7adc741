import * as fs from 'node:fs';
import * as path from 'node:path';
import Module from 'node:module';
import { pathToFileURL } from 'node:url';
import { resolveWithTypeScript, transpile } from './typescript';

type Compile = (module: NodeJS.Module & { _compile(code: string, file: string): void }, file: string) => void;
type ResolveFilename = (request: string, parent: NodeJS.Module | undefined, ...rest: unknown[]) => string;

let registered = false;

/**
 * Lets the CLI load a project's TypeScript config and model files as they are: ESM through
 * module.register hooks, CommonJS through a require hook, both transpiled by the project's
 * TypeScript (decorator metadata kept) and resolved as TypeScript resolves (NodeNext `.js`
 * specifiers, tsconfig `paths`). Stacks point at source lines (inline source maps).
 */
export function registerLoader(): void {
  if (registered) return;
  registered = true;
  process.setSourceMapsEnabled(true);
  const extensions = require.extensions as unknown as Record<string, Compile>;
  const compile: Compile = (module, file) =>
    module._compile(transpile(file, fs.readFileSync(file, 'utf8'), 'commonjs'), file);
  extensions['.ts'] = compile;
  extensions['.cts'] = compile;
  const internals = Module as unknown as { _resolveFilename: ResolveFilename };
  const original = internals._resolveFilename;
  // TypeScript's resolution first for a TypeScript parent, as the ESM hook does: a stale compiled
  // `x.js` next to `x.ts` must not win over the source the project edits.
  internals._resolveFilename = function (request, parent, ...rest) {
    const from = parent?.filename;
    const source = from && /\.(ts|cts|mts)$/.test(from) ? resolveWithTypeScript(request, from) : undefined;
    return source ?? original.call(this, request, parent, ...rest);
  };
  const hooks = path.join(__dirname, 'esm-hooks.js');
  (Module as unknown as { register(specifier: string, parent: string): void }).register(
    pathToFileURL(hooks).href,
    pathToFileURL(__filename).href,
  );
}
