import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface RunResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together, for failure messages. */
  readonly output: string;
}

/**
 * The environment of a child npm/node: without the npm_* variables of the `npm test` that may be
 * running this, which would point a nested npm at this project (npm_config_local_prefix, …).
 */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

export function run(command: string, args: readonly string[], cwd: string): RunResult {
  const result = spawnSync(command, args, { cwd, env: cleanEnv(), encoding: 'utf8', timeout: 240_000 });
  const stdout = result.stdout ?? '';
  const stderr = result.stderr ?? (result.error ? String(result.error) : '');
  return { status: result.status, stdout, stderr, output: `${stdout}${stderr}` };
}

/** npm in `cwd`; a failure throws with npm's output unless `check: false`. */
export function npm(cwd: string, args: readonly string[], options: { check?: boolean } = {}): RunResult {
  const npmCli = path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  const result = fs.existsSync(npmCli) ? run(process.execPath, [npmCli, ...args], cwd) : run('npm', args, cwd);
  if (options.check !== false && result.status !== 0) {
    throw new Error(`npm ${args.join(' ')} failed in ${cwd} (${result.status}):\n${result.output}`);
  }
  return result;
}

/** What `npm pack` needs besides the files the package lists: the build and API-reference inputs. */
const BUILD_INPUTS = ['package.json', '.npmrc', 'tsconfig.json', 'tsconfig.build.json', 'typedoc.json', 'src'];

/**
 * Packs a copy of the project (so the prepack's clean build never races other tests for dist/)
 * and returns the tarball's path. The copy links this project's node_modules for tsc and TypeDoc.
 */
export function packProject(root: string, work: string): string {
  const stage = path.join(work, 'stage');
  const listed = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { files: string[] }).files;
  const inputs = new Set([...BUILD_INPUTS, ...listed.filter((f) => !f.startsWith('!') && f !== 'dist')]);
  for (const input of inputs) {
    const from = path.join(root, input);
    if (!fs.existsSync(from)) continue;
    fs.cpSync(from, path.join(stage, input), {
      recursive: true,
      filter: (file) => !file.startsWith(path.join(root, 'docs', 'api')),
    });
  }
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
  npm(stage, ['pack', '--pack-destination', work]);
  const tarball = fs.readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack wrote no tarball into ${work}`);
  return path.join(work, tarball);
}

/** The tarball's file list, relative to the package root. */
export function tarballFiles(tarball: string): string[] {
  const listing = run('tar', ['-tzf', tarball], path.dirname(tarball));
  return listing.stdout
    .split('\n')
    .filter((line) => line.startsWith('package/') && !line.endsWith('/'))
    .map((line) => line.slice('package/'.length))
    .sort();
}

/**
 * The files of the README's getting-started: every fenced block whose info string names a path
 * after the language (```ts src/models.ts), by that path.
 */
export function readmeFiles(readme: string): Record<string, string> {
  const text = fs.readFileSync(readme, 'utf8');
  const blocks = [...text.matchAll(/^```[a-z]+ ([\w./-]+)\n([\s\S]*?)^```$/gm)];
  return Object.fromEntries(blocks.map((m) => [m[1] as string, m[2] as string]));
}
