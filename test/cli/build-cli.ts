import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Compiles the package once per test file into its own folder, so CLI tests run the real built
 * CLI as a subprocess without racing other test files for dist/.
 */
export function buildCli(name: string): { outDir: string; main: string; index: string } {
  const outDir = path.join(ROOT, '.test-dist', name);
  fs.rmSync(outDir, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', outDir],
    {
      cwd: ROOT,
      stdio: 'pipe',
    },
  );
  return { outDir, main: path.join(outDir, 'cli', 'main.js'), index: path.join(outDir, 'index.js') };
}
