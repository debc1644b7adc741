import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildKey } from './build-cli';

/**
 * The CLI tests share one tsc build per state of the build inputs: a source changed since the
 * build must give another key, or a CLI test would run yesterday's code.
 */
describe('the shared CLI build is keyed by its inputs', () => {
  let root = '';
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-build-key-'));
    fs.mkdirSync(path.join(root, 'src', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tsconfig.json'), '{}');
    fs.writeFileSync(path.join(root, 'tsconfig.build.json'), '{ "extends": "./tsconfig.json" }');
    fs.writeFileSync(path.join(root, 'src', 'index.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(root, 'src', 'cli', 'main.ts'), 'export {};\n');
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('the same inputs give the same key', () => {
    expect(buildKey(root)).toBe(buildKey(root));
  });

  test.each([
    ['a source edited', (dir: string) => fs.appendFileSync(path.join(dir, 'src', 'cli', 'main.ts'), '// changed\n')],
    ['a source added', (dir: string) => fs.writeFileSync(path.join(dir, 'src', 'cli', 'more.ts'), 'export {};\n')],
    ['a source deleted', (dir: string) => fs.rmSync(path.join(dir, 'src', 'index.ts'))],
    [
      'a source renamed',
      (dir: string) => fs.renameSync(path.join(dir, 'src', 'index.ts'), path.join(dir, 'src', 'main.ts')),
    ],
    ['a compiler option changed', (dir: string) => fs.writeFileSync(path.join(dir, 'tsconfig.json'), '{ "x": 1 }')],
    [
      'the build config changed',
      (dir: string) => fs.writeFileSync(path.join(dir, 'tsconfig.build.json'), '{ "include": ["src"] }'),
    ],
  ])('%s gives another key', (_what, change) => {
    const before = buildKey(root);
    change(root);
    expect(buildKey(root)).not.toBe(before);
  });
});
