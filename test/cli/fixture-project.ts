import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './build-cli';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Makes the built CLI an installable `lifespan` package (a package.json with the subpath exports)
 * and copies the fixture project `name` (test/cli/projects/<name>) next to it, with
 * node_modules/lifespan linked to the build. The copy lives under the repository, so its other
 * imports (knex, reflect-metadata, typescript) resolve from the repository's node_modules.
 */
export function fixtureProject(outDir: string, name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  fs.writeFileSync(
    path.join(outDir, 'package.json'),
    JSON.stringify({
      name: 'lifespan-orm',
      version: manifest.version,
      main: 'index.js',
      // The package's own subpath pattern, for a build whose outDir is the package root.
      exports: { '.': './index.js', './package.json': './package.json', './*': './providers/*/index.js' },
    }),
  );
  const project = path.join(outDir, 'projects', name);
  fs.rmSync(project, { recursive: true, force: true });
  fs.cpSync(path.join(__dirname, 'projects', name), project, { recursive: true });
  fs.mkdirSync(path.join(project, 'node_modules'), { recursive: true });
  fs.symlinkSync(outDir, path.join(project, 'node_modules', 'lifespan-orm'), 'dir');
  return project;
}

/** Runs the built CLI as a subprocess in `cwd`, with no terminal. */
export function runCli(
  main: string,
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
