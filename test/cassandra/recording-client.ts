/**
 * A stand-in for cassandra-driver's Client that records every statement with the options it was
 * sent with, and answers the node's own tables from `answers` (no server: for option and explain tests).
 */
export interface Sent {
  readonly query: string;
  readonly params: unknown[];
  readonly options: Record<string, unknown>;
  readonly batch?: readonly string[];
  /** A batch's bound values, statement by statement. */
  readonly batchParams?: readonly unknown[][];
}

type Answer = (query: string, params: unknown[]) => Record<string, unknown>[] | undefined;

function resultSet(rows: Record<string, unknown>[]) {
  return {
    rows,
    first: () => rows[0] ?? null,
    wasApplied: () => true,
    info: {},
    pageState: null,
  };
}

export function recordingClient(answer: Answer = () => undefined) {
  const sent: Sent[] = [];
  const client = {
    sent,
    async execute(query: string, params: unknown[] = [], options: Record<string, unknown> = {}) {
      sent.push({ query, params, options });
      if (/SELECT COUNT\(\*\)/i.test(query)) return resultSet([{ count: 0 }]);
      return resultSet(answer(query, params) ?? []);
    },
    async batch(statements: { query: string; params?: unknown[] }[], options: Record<string, unknown> = {}) {
      const batch = statements.map((s) => s.query);
      sent.push({ query: 'BATCH', params: [], options, batch, batchParams: statements.map((s) => s.params ?? []) });
      return resultSet([]);
    },
  };
  return client;
}

/** Statements on the node's own tables (system_schema, system_views), which take no consistency level. */
export const isSystemRead = (s: Sent): boolean => /FROM system(_schema|_views)?\./i.test(s.query);
