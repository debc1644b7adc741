/**
 * Which unique violation is the primary key, read from the error each driver raises (issue 14,
 * review s4 finding 4). The contract suite meets the real engines; this pins the driver shapes it
 * cannot reach there: MySQL 8's 'table.PRIMARY', a PostgreSQL constraint with a custom name.
 */
import { hitsPrimaryKey, isUniqueViolation } from '../../src/providers/relational/drivers/driver-errors';

const KEY = ['user_id', 'id'];

describe('hitsPrimaryKey', () => {
  test.each([
    ['PostgreSQL <table>_pkey', { code: '23505', constraint: 'orders_pkey' }],
    [
      'PostgreSQL detail names the key columns',
      { code: '23505', constraint: 'pk', detail: 'Key (id, user_id)=(a, u) already exists.' },
    ],
    ['PostgreSQL quoted column names', { code: '23505', detail: 'Key ("user_id", "id")=(u, a) already exists.' }],
    ['MariaDB', { errno: 1062, code: 'ER_DUP_ENTRY', message: "Duplicate entry 'u-a' for key 'PRIMARY'" }],
    ['MySQL 8', { errno: 1062, code: 'ER_DUP_ENTRY', message: "Duplicate entry 'u-a' for key 'orders.PRIMARY'" }],
    [
      'SQLite PRIMARYKEY code',
      { code: 'SQLITE_CONSTRAINT_PRIMARYKEY', message: 'UNIQUE constraint failed: orders.user_id, orders.id' },
    ],
    [
      'SQLite columns of the key',
      { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: orders.user_id, orders.id' },
    ],
  ])('the key: %s', (_name, error) => {
    expect(isUniqueViolation(error)).toBe(true);
    expect(hitsPrimaryKey(error, 'orders', KEY)).toBe(true);
  });

  test.each([
    [
      'PostgreSQL another index',
      { code: '23505', constraint: 'orders_email_key', detail: 'Key (email)=(x) already exists.' },
    ],
    [
      'PostgreSQL part of the key',
      { code: '23505', constraint: 'orders_id_u', detail: 'Key (id)=(a) already exists.' },
    ],
    [
      'MariaDB another index',
      { errno: 1062, code: 'ER_DUP_ENTRY', message: "Duplicate entry 'x' for key 'orders_email_u'" },
    ],
    [
      'MySQL 8 another index',
      { errno: 1062, code: 'ER_DUP_ENTRY', message: "Duplicate entry 'x' for key 'orders.email'" },
    ],
    ['SQLite another index', { code: 'SQLITE_CONSTRAINT_UNIQUE', message: 'UNIQUE constraint failed: orders.email' }],
    ['a driver that says nothing', { code: '23505' }],
  ])('not the key: %s', (_name, error) => {
    expect(isUniqueViolation(error)).toBe(true);
    expect(hitsPrimaryKey(error, 'orders', KEY)).toBe(false);
  });
});
