import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The version of the installed lifespan, from its own package.json: the nearest one up from this
 * file that is lifespan's (dist/, src/ under ts-jest, and the CLI tests' .test-dist/<name>/ all
 * sit at different depths below it).
 */
export function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'lifespan-orm' && typeof pkg.version === 'string') return pkg.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
