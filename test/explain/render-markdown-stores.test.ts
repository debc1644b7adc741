import { ModelBuilder, explain } from '../../src';
import { renderMarkdown } from '../../src/explain/render-markdown';

/** Review item 12: live `explain --format markdown` tells two stores of one kind apart. */
class Session {
  id = '';
  createdAt = new Date(0);
}

const model = new ModelBuilder()
  .entity(Session, (e) =>
    e
      .toCollection('sessions')
      .key((s) => s.id, { type: 'string' })
      .createdAt((s) => s.createdAt)
      .timeToLive('15m'),
  )
  .build();

test('two relational stores: rows and headings name the config key and target; TTL as 15m (900 s)', () => {
  const one = explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } }).entries;
  const entries = [...one, ...one];
  const md = renderMarkdown(entries, ['`local` (relational: sqlite a.db)', '`main` (relational: postgres db/app)']);
  expect(md).toContain('| Session | `local` (relational: sqlite a.db) | sessions |');
  expect(md).toContain('| Session | `main` (relational: postgres db/app) | sessions |');
  expect(md).toContain('## `local` (relational: sqlite a.db)');
  expect(md).toContain('## `main` (relational: postgres db/app)');
  expect(md).toContain('| 15m (900 s) |');
  expect(md).not.toContain('| 900s |');
});
