/** Types for relational.js (plain CommonJS). */
export interface PreparedDatabase {
  /** URL of the fresh database created for this run. */
  url: string;
  database: string;
  version: string;
  /** URL of the server's admin database, used to create and drop run databases. */
  adminUrl: string;
  /** True when the server did not answer and this call started it. */
  started: boolean;
}
export declare const DEFAULT_PG_URL: string;
export declare const DEFAULT_MYSQL_URL: string;
export declare const DB_PREFIX: string;
export declare function preparePostgres(adminUrl?: string, log?: (message: string) => void): Promise<PreparedDatabase>;
export declare function dropPostgresDatabase(adminUrl: string, database: string): Promise<void>;
export declare function prepareMariadb(adminUrl?: string, log?: (message: string) => void): Promise<PreparedDatabase>;
export declare function dropMariadbDatabase(adminUrl: string, database: string): Promise<void>;
