import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildCli } from './build-cli';
import { runCli, type CliRun } from './fixture-project';

/** The fixture model whose TTL and collection come from E2E_TTL / E2E_COLLECTION. */
export const TTL_MODEL = path.join(__dirname, 'fixtures', 'ttl-model.js');

export interface OfflineCli {
  /** The built CLI (set in beforeAll). */
  readonly cli: () => ReturnType<typeof buildCli>;
  /** A fresh, empty working folder for each test. */
  readonly work: () => string;
  /** Runs `lifespan <args> --models TTL_MODEL` with the model's TTL set to `ttl`. */
  readonly lifespan: (ttl: string, ...args: string[]) => Promise<CliRun>;
}

/**
 * Builds the CLI once for a test file and gives each test an empty working folder: the set-up of
 * the offline (no store) snapshot/diff tests.
 */
export function useOfflineCli(name: string): OfflineCli {
  let cli: ReturnType<typeof buildCli> | undefined;
  let work = '';
  beforeAll(() => {
    cli = buildCli(name);
    work = path.join(cli.outDir, 'work');
  }, 120_000);
  beforeEach(() => {
    fs.rmSync(work, { recursive: true, force: true });
    fs.mkdirSync(work, { recursive: true });
  });
  const built = (): ReturnType<typeof buildCli> => {
    if (!cli) throw new Error('the CLI is built in beforeAll');
    return cli;
  };
  return {
    cli: built,
    work: () => work,
    lifespan: (ttl, ...args) =>
      runCli(built().main, work, [...args, '--models', TTL_MODEL], {
        LIFESPAN_UNDER_TEST: built().index,
        E2E_TTL: ttl,
        E2E_COLLECTION: 'sessions',
      }),
  };
}
