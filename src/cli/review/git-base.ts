import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LifespanError } from '../../errors';

function git(cwd: string, args: readonly string[]): string {
  try {
    return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim();
    throw new LifespanError('CLI_GIT_FAILED', `git ${args[0] ?? ''} failed: ${stderr || (error as Error).message}`, {
      hint: 'run diff --base inside a git repository, with a ref that exists (git fetch origin main in CI)',
    });
  }
}

/**
 * Where a report made from the working tree comes from, for its title: the commit, and whether
 * the tree differs from it (a title must not name a commit whose models are not the reported
 * ones): a changed tracked file, or one of `paths` (the config and models files) not committed
 * yet. An untracked file elsewhere (CI's own `> ttl-change.md`) is no change to the models.
 * Undefined outside a repository.
 */
export function workingTree(
  cwd = process.cwd(),
  paths: readonly string[] = [],
): { commit: string; uncommitted?: true } | undefined {
  const commit = currentCommit(cwd);
  if (commit === undefined) return undefined;
  const status = (args: readonly string[]) =>
    execFileSync('git', ['status', '--porcelain', ...args], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  try {
    const changed = status(['--untracked-files=no']) !== '' || (paths.length > 0 && status(['--', ...paths]) !== '');
    return changed ? { commit, uncommitted: true } : { commit };
  } catch {
    return { commit };
  }
}

/** The current commit (short), or undefined outside a repository. */
export function currentCommit(cwd = process.cwd()): string | undefined {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs `use` with the path that `file` has in the tree of `ref`, checked out (git archive) into a
 * temporary folder inside the repository, so the old models resolve the project's node_modules
 * and tsconfig just as the current ones do. The folder is removed afterwards, also when the run
 * is interrupted (Ctrl-C, a CI timeout's SIGTERM). `use` gets undefined when `file` is not in
 * that tree.
 */
export async function atGitRef<T>(
  ref: string,
  file: string,
  use: (oldFile: string | undefined) => Promise<T>,
): Promise<T> {
  const absolute = path.resolve(file);
  const root = git(path.dirname(absolute), ['rev-parse', '--show-toplevel']);
  const commit = git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  const relative = path.relative(fs.realpathSync(root), fs.realpathSync(absolute));
  const folder = fs.mkdtempSync(path.join(root, '.lifespan-base-'));
  const remove = () => fs.rmSync(folder, { recursive: true, force: true });
  const onSignal = (signal: NodeJS.Signals) => {
    remove();
    process.kill(process.pid, signal); // the default action, now that the handler is gone
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    extract(root, commit, folder);
    // A renamed models file (git mv src/models.ts src/model.ts) is compared with its old self.
    const oldFile = path.join(folder, renamedFrom(root, commit, relative) ?? relative);
    // A file new in this change (the first TTL pull request): `use` is told there was none.
    return await use(fs.existsSync(oldFile) ? oldFile : undefined);
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    remove();
  }
}

/** The path `relative` had at `commit` when git sees it renamed since (undefined: not renamed). */
function renamedFrom(root: string, commit: string, relative: string): string | undefined {
  const out = git(root, ['diff', '--find-renames', '--diff-filter=R', '--name-status', '-z', commit, '--']);
  const fields = out.split('\0');
  for (let i = 0; i + 2 < fields.length; i += 3) {
    if (fields[i + 2] === relative) return fields[i + 1];
  }
  return undefined;
}

/** The tree of `commit` into `folder`, through a tar file on disk (no in-memory copy of the tree). */
function extract(root: string, commit: string, folder: string): void {
  const archive = path.join(folder, '.lifespan-base.tar');
  git(root, ['archive', '--format=tar', '-o', archive, commit]);
  try {
    execFileSync('tar', ['-x', '-f', archive, '-C', folder], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    const detail = String((error as { stderr?: unknown }).stderr ?? '').trim() || (error as Error).message;
    throw new LifespanError('CLI_GIT_FAILED', `unpacking the tree of ${commit.slice(0, 12)} failed: ${detail}`, {
      hint: 'diff --base needs the tar program on the PATH; or compare against a committed snapshot file instead',
    });
  } finally {
    fs.rmSync(archive, { force: true });
  }
}
