/** The column holding an emulated row's expiry instant. */
export const EXPIRY_COLUMN = 'expires_at';

export function expiryIndexName(table: string): string {
  return `ix_${table}_expires_at`;
}

/** The table where apply records each emulated table's TTL, to plan a TTL change against. */
export const TTL_RECORD_TABLE = 'lifespan_ttl';

/** The database-wide lock ensureCollections() holds while it changes the schema. */
export const SCHEMA_LOCK_NAME = 'lifespan:schema';
