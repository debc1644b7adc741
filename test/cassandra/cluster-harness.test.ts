/**
 * The test bed's handling of the three-node cluster, without starting it: one jest run at a time
 * owns it (a lock file with its pid), teardown stops nodes still starting instead of waiting for the
 * start, the status file stays removed, and the cluster starts only for a run with a cluster suite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { clusterSuiteSelected, releaseClusterLock, takeClusterLock } from '../harness/cassandra-cluster-setup';
import { type HarnessState, releaseHarness } from '../harness/harness-state';

const tmp = (name: string) => path.join(os.tmpdir(), `lifespan-harness-test-${process.pid}-${name}`);

describe('the cluster lock', () => {
  const lock = tmp('lock');
  afterEach(() => fs.rmSync(lock, { force: true }));

  test('taken by this run, refused while another live run holds it, taken over from a dead one', async () => {
    expect(takeClusterLock(lock)).toBeNull();
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(takeClusterLock(lock)).toBeNull(); // this run again
    releaseClusterLock(lock);
    expect(fs.existsSync(lock)).toBe(false);

    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      fs.writeFileSync(lock, String(other.pid));
      expect(takeClusterLock(lock)).toBe(other.pid);
      releaseClusterLock(lock); // not ours: left in place
      expect(fs.readFileSync(lock, 'utf8')).toBe(String(other.pid));
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    expect(takeClusterLock(lock)).toBeNull();
    expect(fs.readFileSync(lock, 'utf8')).toBe(String(process.pid));
  });
});

describe('teardown of a cluster still starting', () => {
  test('stops the spawned nodes at once instead of awaiting the start, and writes no status file after', async () => {
    const file = tmp('status.json');
    fs.writeFileSync(file, '{"state":"starting"}');
    let finishStart: (value: null) => void = () => undefined;
    const stopped: string[] = [];
    const state: HarnessState = {
      cassandraClusterFile: file,
      cassandraCluster: new Promise((resolve) => {
        finishStart = resolve;
      }),
      clusterNodes: [
        {
          pid: 1,
          host: '127.0.0.2',
          stop: async () => {
            stopped.push('127.0.0.2');
          },
          terminate: () => undefined,
        },
      ],
    };
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      releaseHarness(state).then(() => 'released'),
      new Promise((resolve) => {
        timer = setTimeout(resolve, 2000, 'still waiting for the start');
      }),
    ]);
    clearTimeout(timer);
    expect(outcome).toBe('released');
    expect(stopped).toEqual(['127.0.0.2']);
    expect(fs.existsSync(file)).toBe(false);
    expect(state.tearingDown).toBe(true);
    finishStart(null);
  });
});

describe('the cluster starts only for a run that selects a cluster suite', () => {
  const rootDir = path.resolve(__dirname, '../..');

  test.each([
    [[], true],
    [['test/cassandra/cluster-options.test.ts'], false],
    [['test/cassandra/cluster'], true],
    [['test/cassandra/cluster.live.test.ts'], true],
    [['test/contract'], false],
  ])('%j: %s', (patterns, expected) => {
    expect(clusterSuiteSelected({ rootDir, testPathPatterns: { patterns } })).toBe(expected);
  });
});
