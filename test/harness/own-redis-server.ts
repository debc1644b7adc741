import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../servers/redis-cluster';
import { sleep, tcpOpen } from '../servers/system';

/**
 * One redis-server of a test file's own, on a free port, its RDB in a temp dir (restarts keep the
 * data): for tests that restart the server or read its whole-server counters (INFO commandstats),
 * which other files' tests on the shared server would disturb.
 */
export class OwnRedisServer {
  private child: ChildProcess | undefined;
  private constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  static async start(): Promise<OwnRedisServer> {
    const server = new OwnRedisServer(await freePort(), fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-own-redis-')));
    await server.run();
    return server;
  }

  private async run(): Promise<void> {
    const args = [
      '--port',
      String(this.port),
      '--bind',
      '127.0.0.1',
      '--dir',
      this.dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ];
    this.child = spawn('redis-server', args, { stdio: 'ignore' });
    for (let i = 0; i < 100 && !(await tcpOpen('127.0.0.1', this.port, 200)); i++) await sleep(50);
  }

  /** SAVE, stop, start again on the same port and RDB: the same data in another process. */
  async restart(command: (args: string[]) => Promise<unknown>): Promise<void> {
    await command(['SAVE']);
    const child = this.child as ChildProcess;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    await this.run();
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
