import type { ConnectionErrorPatterns } from '../connection-patterns';

/** @azure/cosmos's connection failures: a refused key is HTTP 401 on the error's `code`. */
export const connectionErrors: ConnectionErrorPatterns = {
  authFailed: { codes: [401] },
};
