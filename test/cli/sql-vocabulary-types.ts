/**
 * Type-level (checked by `npm run typecheck`): the CLI's copy of the relational words equals the
 * relational store's own types, both ways.
 */
import type { RelationalDialect } from '../../src/providers/relational/families/dialects';
import type { RelationalTtlMode } from '../../src/providers/relational/options';
import type { RelationalTtlWord, SqlDialect } from '../../src/cli/review/sql-vocabulary';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const dialectsAgree: Same<SqlDialect, RelationalDialect> = true;
export const ttlModesAgree: Same<RelationalTtlWord, RelationalTtlMode> = true;
