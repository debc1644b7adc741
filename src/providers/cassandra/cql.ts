import { LifespanError } from '../../errors';
import { showValue } from '../../model/show-value';
import { STORE } from './semantics';

/** Cassandra's own rule for keyspace and table names (and the portable subset lifespan allows for columns). */
const CQL_NAME = /^[A-Za-z0-9_]{1,48}$/;

/**
 * Every identifier is validated and double-quoted: quoting keeps the case the model declares and lets
 * names that are CQL keywords (`key`, `value`, `token`) be used as they are.
 */
export function quoteId(name: string, what = 'identifier'): string {
  checkName(name, what);
  return `"${name}"`;
}

export function checkName(name: unknown, what: string): string {
  if (typeof name !== 'string' || !CQL_NAME.test(name)) {
    throw new LifespanError('CASSANDRA_BAD_NAME', `${what} ${showValue(name)} is not a valid Cassandra name`, {
      store: STORE,
      hint: 'use 1 to 48 letters, digits or underscores',
    });
  }
  return name;
}

/** keyspace.table, both quoted. */
export function qualified(keyspace: string | null, table: string): string {
  return keyspace === null ? quoteId(table, 'table') : `${quoteId(keyspace, 'keyspace')}.${quoteId(table, 'table')}`;
}
