import type { ConnectionErrorPatterns } from '../connection-patterns';

/** The redis client's connection failures, as the server's error replies spell them. */
export const connectionErrors: ConnectionErrorPatterns = {
  authFailed: { messages: [/^WRONGPASS/i, /^NOAUTH/i] },
  // Redis answers SELECT of a database past its `databases` setting with this error.
  databaseMissing: {
    messages: [/^ERR DB index is out of range/],
    hint: 'check the database number in the connection URL: Redis has databases 0 up to its `databases` setting (excluded)',
  },
};
