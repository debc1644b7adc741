/** explain() for the relational store needs no driver: every driver module throws when loaded here. */
jest.mock('knex', () => {
  throw new Error('knex must not be loaded by explain()');
});
jest.mock('better-sqlite3', () => {
  throw new Error('better-sqlite3 must not be loaded by explain()');
});
jest.mock('pg', () => {
  throw new Error('pg must not be loaded by explain()');
});
jest.mock('mysql2', () => {
  throw new Error('mysql2 must not be loaded by explain()');
});

import { explain } from '../../src';
import { model } from '../../examples/models';
import { relationalExplainer } from '../../src/providers/relational/explainer';

test('explains with ttl: emulate on every dialect without loading a driver', () => {
  const report = explain(model, { stores: ['relational'], relational: { ttl: 'emulate' } });
  expect(report.entries.filter((e) => e.mechanism === 'emulated')).toHaveLength(5);
  for (const dialect of ['sqlite', 'postgres', 'mariadb', 'mysql'] as const) {
    expect(relationalExplainer.explain(model, { ttl: 'emulate', dialect })).toHaveLength(6);
  }
  expect(() => require('knex')).toThrow('must not be loaded');
});
