import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT } from './build-cli';
import { runCli } from './fixture-project';
import { TTL_MODEL, useOfflineCli } from './offline-cli';

/**
 * `lifespan snapshot` / `lifespan diff` edge cases (issue 12, items 4, 7, 10, 11), with the
 * built CLI as a subprocess and no store at all.
 */
const offline = useOfflineCli('snapshot-diff-cli');
const { lifespan } = offline;
const MODEL = TTL_MODEL;

describe('snapshot --file (item 7)', () => {
  test('writes into a folder that does not exist yet, through a temporary file', async () => {
    const run = await lifespan('1h', 'snapshot', '--file', 'review/deep/lifespan.snapshot.json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(fs.readdirSync(path.join(offline.work(), 'review', 'deep'))).toEqual(['lifespan.snapshot.json']);
  });

  test('a folder that cannot be made is a typed usage error, not a raw ENOENT', async () => {
    fs.writeFileSync(path.join(offline.work(), 'blocker'), '');
    const run = await lifespan('1h', 'snapshot', '--file', 'blocker/x.json');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('[CLI_SNAPSHOT_WRITE]');
    expect(run.stderr).not.toContain('internal error');
  });
});

describe('a broken snapshot file is CLI_BAD_SNAPSHOT, exit 2 (item 7)', () => {
  const valid = {
    version: 1,
    stores: ['cosmos'],
    relationalTtl: 'ignore',
    entries: [] as unknown[],
  };
  test.each([
    ['null', null, /top level/],
    ['entries: [null]', { ...valid, entries: [null] }, /entries\[0\]: not an object/],
    ['stores: ["bogus"]', { ...valid, stores: ['bogus'] }, /stores must list/],
    ['relationalTtl: "sometimes"', { ...valid, relationalTtl: 'sometimes' }, /relationalTtl/],
    [
      'an entry with seconds: "1h"',
      {
        ...valid,
        entries: [
          {
            store: 'cosmos',
            entity: 'Session',
            collection: 'sessions',
            mechanism: 'container-ttl',
            seconds: '1h',
            countsFrom: null,
            changeEffect: { kind: 'retroactive', text: '' },
            commands: [],
          },
        ],
      },
      /entries\[0\]: seconds/,
    ],
  ])('%s', async (_name, content, problem) => {
    fs.writeFileSync(path.join(offline.work(), 'lifespan.snapshot.json'), JSON.stringify(content));
    const run = await lifespan('1h', 'diff', '--store', 'cosmos');
    expect(run.stderr).toContain('[CLI_BAD_SNAPSHOT]');
    expect(run.stderr).toMatch(problem);
    expect(run.code).toBe(2);
  });
});

describe('diff --check compares only what was asked, with the snapshot options (item 11)', () => {
  test('--store cosmos against a snapshot of every store, nothing changed: exit 0', async () => {
    expect((await lifespan('1h', 'snapshot')).code).toBe(0);
    const run = await lifespan('1h', 'diff', '--check', '--store', 'cosmos');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  test('--emulate against a snapshot made without it is a usage error, not drift', async () => {
    expect((await lifespan('1h', 'snapshot')).code).toBe(0);
    const run = await lifespan('1h', 'diff', '--check', '--emulate');
    expect(run.stderr).toContain('[CLI_SNAPSHOT_MISMATCH]');
    expect(run.code).toBe(2);
  });

  test('a store kind the snapshot lacks is a usage error, not every entity shown as new', async () => {
    expect((await lifespan('1h', 'snapshot', '--store', 'cosmos')).code).toBe(0);
    const run = await lifespan('1h', 'diff', '--store', 'mongodb');
    expect(run.stdout).not.toContain('new-entity');
    expect(run.stderr).toContain('[CLI_SNAPSHOT_MISMATCH]');
    expect(run.code).toBe(2);
  });

  test('--file with --base is refused, not silently ignored', async () => {
    const run = await lifespan('1h', 'diff', '--base', 'HEAD', '--file', 'other.json');
    expect(run.stderr).toContain('[CLI_BAD_OPTIONS]');
    expect(run.code).toBe(2);
  });
});

describe('diff shows what it knows offline, not a creation command as the change (item 10)', () => {
  test('a TTL change is labelled a desired definition, unverified; an ignored relational TTL runs nothing', async () => {
    expect((await lifespan('1h', 'snapshot')).code).toBe(0);
    const run = await lifespan('5m', 'diff', '--format', 'json');
    expect(run.code).toBe(0);
    const { plans } = JSON.parse(run.stdout) as {
      plans: { store: string; steps: { command: string; effect: { verified: boolean } }[] }[];
    };
    const of = (store: string) => plans.find((p) => p.store === store)!.steps[0]!;
    for (const store of ['cosmos', 'mongodb', 'cassandra']) {
      expect(of(store).command).toMatch(/^-- desired definition; `lifespan plan`/);
      expect(of(store).effect.verified).toBe(false);
    }
    expect(of('relational').command).toBe('-- nothing is run');
    expect(of('relational').command).not.toContain('CREATE TABLE');
  });
});

describe('diff --base failures are typed (item 4)', () => {
  test('no tar on the PATH: CLI_GIT_FAILED with a hint, exit 2, and no temporary folder left', async () => {
    const bin = path.join(offline.work(), 'bin');
    fs.mkdirSync(bin);
    const gitPath = execFileSync('which', ['git'], { encoding: 'utf8' }).trim();
    fs.symlinkSync(gitPath, path.join(bin, 'git'));
    const run = await runCli(
      offline.cli().main,
      offline.work(),
      ['diff', '--base', 'HEAD', '--store', 'cosmos', '--models', MODEL],
      {
        LIFESPAN_UNDER_TEST: offline.cli().index,
        E2E_TTL: '1h',
        E2E_COLLECTION: 'sessions',
        PATH: bin,
      },
    );
    expect(run.stderr).toContain('[CLI_GIT_FAILED]');
    expect(run.stderr).toContain('tar');
    expect(run.code).toBe(2);
    expect(fs.readdirSync(ROOT).filter((f) => f.startsWith('.lifespan-base-'))).toEqual([]);
  });
});
