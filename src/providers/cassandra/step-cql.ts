import type { StatementShape } from '../../core/statement-shapes';
import type { CassandraStepPayload } from './step-payload';

/**
 * The CQL statements each Cassandra step op is made of (ddl.ts), as shapes: the plan gate runs a
 * statement only when it has one of its op's shapes.
 */

const ID = '"[A-Za-z0-9_]{1,48}"';
const TABLE = `${ID}(?:\\.${ID})?`;
/** A CQL type, collections and frozen types included (`text`, `map<text, int>`, `frozen<list<uuid>>`). */
const TYPE = '[a-z]+(?:<[a-z0-9_<>, ]+>)?';
const ORDER = `${ID} (?:ASC|DESC)`;
const DEFAULT_TTL = 'default_time_to_live = \\d+';

const shape = (destroys: boolean, text: string): StatementShape => ({ pattern: new RegExp(`^${text}$`), destroys });

const CREATE_TABLE = shape(
  false,
  `CREATE TABLE IF NOT EXISTS ${TABLE} \\(${ID} ${TYPE}(?:, ${ID} ${TYPE})*, ` +
    `PRIMARY KEY \\(\\(${ID}(?:, ${ID})*\\)(?:, ${ID})*\\)\\)` +
    `(?: WITH (?:CLUSTERING ORDER BY \\(${ORDER}(?:, ${ORDER})*\\)(?: AND ${DEFAULT_TTL})?|${DEFAULT_TTL}))?`,
);
const ADD_COLUMN = shape(false, `ALTER TABLE ${TABLE} ADD ${ID} ${TYPE}`);
const SET_DEFAULT_TTL = shape(false, `ALTER TABLE ${TABLE} WITH ${DEFAULT_TTL}`);
const DROP_TABLE = shape(true, `DROP TABLE IF EXISTS ${TABLE}`);

/** The statement shapes each op may run; a conflict runs nothing. */
export const STEP_CQL_SHAPES: Readonly<Record<CassandraStepPayload['op'], readonly StatementShape[]>> = {
  'create-table': [CREATE_TABLE],
  'add-column': [ADD_COLUMN],
  'set-default-ttl': [SET_DEFAULT_TTL],
  'recreate-table': [DROP_TABLE, CREATE_TABLE],
  conflict: [],
};
