'use strict';
/** Deletes every key under a bench run's own prefix (never another's: SCAN MATCH on the prefix, UNLINK). */
async function deleteKeys(client, prefix) {
  let cursor = '0';
  do {
    const [next, keys] = await client.sendCommand(['SCAN', cursor, 'MATCH', `${prefix}*`, 'COUNT', '1000']);
    cursor = next;
    if (keys.length > 0) await client.sendCommand(['UNLINK', ...keys]);
  } while (cursor !== '0');
}

module.exports = { deleteKeys };
