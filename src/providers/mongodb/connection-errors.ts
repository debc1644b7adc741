import type { ConnectionErrorPatterns } from '../connection-patterns';

/** The mongodb driver's connection failures: server error 18 is AuthenticationFailed. */
export const connectionErrors: ConnectionErrorPatterns = {
  authFailed: { codes: [18], messages: [/authentication failed/i] },
  unreachable: { names: ['MongoServerSelectionError'] },
};
