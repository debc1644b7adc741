import type { ConnectionErrorPatterns } from '../connection-patterns';

/**
 * cassandra-driver's connection failures: a refused login is an AuthenticationError, often inside
 * the NoHostAvailableError that alone would read as "unreachable".
 */
export const connectionErrors: ConnectionErrorPatterns = {
  authFailed: { names: ['AuthenticationError'] },
  unreachable: { names: ['NoHostAvailableError'] },
};
