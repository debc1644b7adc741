/**
 * The packed-package tests need the npm registry: outside CI an unreachable registry is detected
 * with one short request and skips them with the reason; under CI they run (and fail) regardless.
 */
import { spawn } from 'node:child_process';
import { registryProblem, registrySkipReason } from './registry';

describe('the registry check of the packed-package tests', () => {
  test('outside CI an unreachable registry is a skip reason that names it, without its password', () => {
    // Port 1 on the loopback refuses the connection at once.
    const reason = registryProblem('http://user:secret@127.0.0.1:1/');
    expect(reason).toMatch(/^the npm registry http:\/\/127\.0\.0\.1:1\/ is unreachable \(.+\)/);
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
