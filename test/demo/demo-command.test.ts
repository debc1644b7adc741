/** `lifespan demo` from an installed package: compiled models, and a clear error without drivers. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LifespanError } from '../../src';
import { checkDemoDrivers } from '../../src/cli/commands/demo';
import { model } from '../../src/demo/models';

describe('lifespan demo', () => {
  test('runs the example models shipped compiled with the package, not a file of the repository', () => {
    const source = fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'cli', 'commands', 'demo.ts'), 'utf8');
    expect(source).not.toMatch(/examples|loadModel/);
    expect(model.entities.map((e) => e.collection)).toEqual([
      'sessions',
      'visits',
      'carts',
      'readings',
      'cache_entries',
      'audit_log',
    ]);
  });

  test('without knex or better-sqlite3 it says which to install, as a LifespanError', () => {
    const resolve = (name: string): string => {
      if (name === 'better-sqlite3') throw new Error(`Cannot find module '${name}'`);
      return `/x/${name}`;
    };
    expect(() => checkDemoDrivers(resolve)).toThrow(LifespanError);
    expect(() => checkDemoDrivers(resolve)).toThrow(
      expect.objectContaining({
        code: 'DEMO_DRIVER_MISSING',
        message: expect.stringContaining('needs better-sqlite3'),
        hint: 'npm install knex better-sqlite3 (the explain part above needs no driver)',
      }),
    );
    expect(() => checkDemoDrivers()).not.toThrow();
  });
});
