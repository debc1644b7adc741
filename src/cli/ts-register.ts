import * as fs from 'node:fs';
import { LifespanError } from '../errors';

type CompileHook = (module: NodeJS.Module & { _compile(code: string, file: string): void }, file: string) => void;

let registered = false;

/**
 * Lets `require()` load .ts model files. Transpiles with TypeScript itself (an optional peer
 * dependency) because esbuild-based loaders drop decorator metadata, which the model reads.
 */
export function registerTypeScript(): void {
  if (registered) return;
  const ts = loadTypeScript();
  const extensions = require.extensions as unknown as Record<string, CompileHook>;
  extensions['.ts'] = (module, file) => {
    const source = fs.readFileSync(file, 'utf8');
    const output = ts.transpileModule(source, {
      fileName: file,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2022,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        useDefineForClassFields: false,
        esModuleInterop: true,
        sourceMap: false,
        inlineSourceMap: true,
      },
    });
    module._compile(output.outputText, file);
  };
  registered = true;
}

function loadTypeScript(): typeof import('typescript') {
  try {
    return require('typescript') as typeof import('typescript');
  } catch (cause) {
    throw new LifespanError('CLI_TYPESCRIPT_MISSING', 'loading a .ts models file needs the typescript package', {
      hint: 'npm install --save-dev typescript, or point the CLI at the compiled .js file',
      cause,
    });
  }
}
