/** The demo `npm start` runs: the example model on a SQLite file with emulated TTL. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { model } from '../../examples/models';
import { runRelationalDemo } from '../../src/demo/sqlite-demo';
import { describeStore } from '../harness/stores';

describeStore('sqlite', 'relational demo', () => {
  test('applies the model, writes rows with different TTLs, purges eight days ahead', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifespan-demo-'));
    const file = path.join(dir, 'demo.db');
    try {
      const lines: string[] = [];
      const result = await runRelationalDemo((l) => lines.push(l), file, model);
      const text = lines.join('\n');
      expect(text).toContain('sessions sessions-a (default 1h): ttl() = 3600s');
      expect(text).toContain('carts carts-b (per-write 90s): ttl() = 90s');
      // per-write TTLs only where the entity declares perWrite, as on every store
      expect(text).not.toContain('sessions-b');
      expect(text).toContain('audit_log audit_log-a (no TTL): ttl() = never expires');
      const purged = Object.fromEntries(result.rows.map((r) => [`${r.collection}:${r.ttl}`, r.purged]));
      expect(purged).toEqual({
        'sessions:default 1h': true,
        'visits:default 1h after lastSeenAt': true,
        'carts:default 7d': true,
        'carts:per-write 90s': true,
        'readings:default 30d': false,
        'cache_entries:no default TTL': false,
        'cache_entries:per-write 90s': true,
        'audit_log:no TTL': false,
      });
      expect(result.purged).toEqual({ sessions: 1, visits: 1, carts: 2, readings: 0, cache_entries: 1 });
      // a second run on the same file: nothing to create, the same outcome
      const again = await runRelationalDemo(() => undefined, file, model);
      expect(again.purged).toEqual(result.purged);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
