/**
 * Issue 13, finding 7: in ttl: 'ignore' mode nothing expires, so the per-write table must not call
 * 'default', 'never' or 'keep' native: they are accepted and ignored, and the table says so.
 */
import 'reflect-metadata';
import { Entity, Key, ModelBuilder, TimeToLive, explain } from '../../src';

@Entity()
@TimeToLive({ ttl: '1h', perWrite: true })
class Declared {
  @Key() id = '';
}

@Entity()
@TimeToLive('1h')
class Undeclared {
  @Key() id = '';
}

const model = new ModelBuilder().entity(Declared).entity(Undeclared).build();

function rows(entity: string, ttl: 'ignore' | 'emulate') {
  const entry = explain(model, { stores: ['relational'], relational: { ttl } }).entries.find(
    (e) => e.entity === entity,
  );
  return Object.fromEntries((entry?.perWrite ?? []).map((r) => [r.value, r]));
}

test('ignore mode: no row is native; default, never and keep are accepted and ignored, and say nothing expires', () => {
  const table = rows('Declared', 'ignore');
  expect(Object.values(table).filter((r) => r.support === 'native')).toEqual([]);
  for (const value of ['default', 'never', 'keep'] as const) {
    expect(table[value]?.support).toBe('ignored');
    expect(table[value]?.how).toMatch(/nothing expires|no expiry/);
  }
  expect(table.duration?.support).toBe('unsupported');
  expect(table.extend?.support).toBe('unsupported');
});

test('ignore mode without perWrite: only default, and it is ignored too', () => {
  const table = rows('Undeclared', 'ignore');
  expect(table.default?.support).toBe('ignored');
  for (const value of ['duration', 'never', 'keep', 'extend'] as const) {
    expect(table[value]?.support).toBe('unsupported');
    expect(table[value]?.how).toMatch(/perWrite: true/);
  }
});

test('emulate mode keeps its emulated rows', () => {
  expect(Object.values(rows('Declared', 'emulate')).map((r) => r.support)).toEqual(Array(6).fill('emulated'));
});
