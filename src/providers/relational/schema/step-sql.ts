import type { StatementShape } from '../../../core/statement-shapes';
import type { StepOp } from '../step-payload';
import { EXPIRY_COLUMN, TTL_RECORD_TABLE } from './names';

/**
 * The SQL statements each relational step op is made of (ddl-sql.ts, ttl-record.ts), as shapes over
 * every SQL family's quoting: the plan gate runs a statement only when it has one of its op's shapes.
 */

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const id = (name: string) => `(?:"${name}"|\`${name}\`)`;
const ID = id(NAME);
/** A column type: words, each with an optional size (`DATETIME(3)`, `varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`). */
const TYPE = '[A-Za-z][A-Za-z0-9_]*(?:\\(\\d+\\))?(?: [A-Za-z][A-Za-z0-9_]*(?:\\(\\d+\\))?)*';
const COLUMN = `${ID} ${TYPE} (?:NOT )?NULL`;
const RECORD = id(TTL_RECORD_TABLE);
const incoming = (column: string) => `${id(column)} = (?:excluded\\.${id(column)}|VALUES\\(${id(column)}\\))`;

const shape = (destroys: boolean, ...parts: string[]): StatementShape => ({
  pattern: new RegExp(`^${parts.join('')}$`),
  destroys,
});

const CREATE_TABLE = shape(
  false,
  `CREATE TABLE IF NOT EXISTS ${ID} \\(\\s*${COLUMN}(?:,\\s*${COLUMN})*,\\s*PRIMARY KEY \\(${ID}(?:, ${ID})*\\)\\s*\\)`,
);
const CREATE_INDEX = shape(false, `CREATE INDEX (?:IF NOT EXISTS )?${ID} ON ${ID} \\(${ID}\\)`);
const ADD_COLUMN = shape(false, `ALTER TABLE ${ID} ADD COLUMN (?:IF NOT EXISTS )?${COLUMN}`);
const UPSERT_RECORD = shape(
  false,
  `INSERT INTO ${RECORD} \\(${id('table_name')}, ${id('ttl_seconds')}, ${id('counts_from')}\\) `,
  `VALUES \\('${NAME}', (?:NULL|\\d+), '[A-Za-z0-9_:-]+'\\) `,
  `(?:ON CONFLICT \\(${id('table_name')}\\) DO UPDATE SET|ON DUPLICATE KEY UPDATE) `,
  `${incoming('ttl_seconds')}, ${incoming('counts_from')}`,
);
const DROP_INDEX = shape(true, `DROP INDEX (?:IF EXISTS )?${ID}(?: ON ${ID})?`);
const DROP_EXPIRY_COLUMN = shape(true, `ALTER TABLE ${ID} DROP COLUMN ${id(EXPIRY_COLUMN)}`);
const DELETE_RECORD = shape(true, `DELETE FROM ${RECORD} WHERE ${id('table_name')} = '${NAME}'`);

/** The statement shapes each op may run; a conflict runs nothing. */
export const STEP_SQL_SHAPES: Readonly<Record<StepOp, readonly StatementShape[]>> = {
  'create-table': [CREATE_TABLE, CREATE_INDEX, UPSERT_RECORD],
  'add-column': [ADD_COLUMN],
  'add-expiry-column': [ADD_COLUMN, CREATE_TABLE, UPSERT_RECORD],
  'create-expiry-index': [CREATE_INDEX],
  'record-ttl': [CREATE_TABLE, UPSERT_RECORD],
  'set-ttl': [CREATE_TABLE, UPSERT_RECORD],
  'drop-expiry-column': [DROP_INDEX, DROP_EXPIRY_COLUMN, DELETE_RECORD],
  'keep-expiry-column': [],
  'primary-key': [],
  'column-type': [],
  'column-collation': [],
  'column-nullability': [],
};
