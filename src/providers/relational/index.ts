/**
 * `lifespan-orm/relational`: SQLite, PostgreSQL and MariaDB/MySQL through knex.
 * @module lifespan-orm/relational
 */
export { RelationalStore } from './store';
export type { RelationalStoreOptions, RelationalTtlMode, RelationalLogger } from './options';
export { RELATIONAL_TTL_MODES } from './options';
export { relationalExplainer, type RelationalExplainOptions } from './explainer';
export type { RelationalDialect } from './families/dialects';
export { EXPIRY_COLUMN } from './schema/names';
export type { RelationalRepository } from './repository';
export type { RelationalSession } from './session';
export type { RelationalPurgeResult } from './purge/purge';
