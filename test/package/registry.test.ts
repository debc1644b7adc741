/**
 * The packed-package tests need the npm registry: outside CI an unreachable registry is detected
 * with one short request and skips them with the reason; under CI they run (and fail) regardless.
 */
import { spawn } from 'node:child_process';
import * as net from 'node:net';
import { registryProblem, registrySkipReason } from './registry';

describe('the registry check of the packed-package tests', () => {
  test('outside CI an unreachable registry is a skip reason that names it, without its password', async () => {
    // A port that was free a moment ago: the loopback refuses the connection at once.
    const port = await freePort();
    const reason = registryProblem(`http://user:secret@127.0.0.1:${port}/`);
    expect(reason).toBe(`the npm registry http://127.0.0.1:${port}/ is unreachable (ECONNREFUSED, within 5 s)`);
    expect(reason).not.toContain('secret');
    expect(registrySkipReason({}, () => 'offline')).toBe('offline');
  });

  test('under CI the tests run whatever the registry does, and the registry is not even probed', () => {
    const probe = jest.fn(() => 'offline');
    expect(registrySkipReason({ CI: 'true' }, probe)).toBeUndefined();
    expect(probe).not.toHaveBeenCalled();
  });

  test('any HTTP answer (even 404) means reachable', async () => {
    // The probe blocks this process (spawnSync), so the answering server runs in a child of its own.
    const server = spawn(process.execPath, [
      '-e',
      'const s = require("node:http").createServer((q, r) => r.writeHead(404).end());' +
        's.listen(0, "127.0.0.1", () => console.log(s.address().port));',
    ]);
    try {
      const port = await new Promise<string>((resolve) =>
        server.stdout.once('data', (d: Buffer) => resolve(String(d).trim())),
      );
      expect(registryProblem(`http://127.0.0.1:${port}/`)).toBeUndefined();
    } finally {
      server.kill();
    }
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
