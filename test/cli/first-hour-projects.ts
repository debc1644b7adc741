import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fixtureProject } from './fixture-project';

/**
 * A fresh copy of fixture project `base` (test/cli/projects) named `name`, with `files` written
 * over it (a null removes the file), for the first-hour tests (issue 24): each test its own project.
 */
export function projectFrom(
  outDir: string,
  base: 'cjs' | 'esm',
  name: string,
  files: Record<string, string | null> = {},
): string {
  const made = fixtureProject(outDir, base);
  const project = path.join(path.dirname(made), name);
  fs.rmSync(project, { recursive: true, force: true });
  fs.renameSync(made, project);
  for (const [file, text] of Object.entries(files)) {
    const at = path.join(project, file);
    if (text === null) fs.rmSync(at, { force: true });
    else {
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, text);
    }
  }
  return project;
}

/** A git repository of its own in `dir`, with everything in it committed. */
export function gitInit(dir: string): void {
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dir,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    });
  git('init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n*.db\n');
  git('add', '-A');
  git('commit', '-qm', 'base');
}

/** A knex relational store factory for a config file, on `connection` (an expression). */
export function relationalConfig(client: string, connection: string, ttl: string, modelsImport: string): string {
  return `import { defineConfig } from 'lifespan-orm';
import { RelationalStore } from 'lifespan-orm/relational';
import knex from 'knex';
import { model } from '${modelsImport}';

export default defineConfig({
  model,
  stores: {
    main: () => {
      const db = knex({ client: '${client}', connection: ${connection}, useNullAsDefault: true });
      return { store: new RelationalStore({ knex: db, ttl: '${ttl}' }), dispose: () => db.destroy() };
    },
  },
});
`;
}
