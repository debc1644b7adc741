/** cassandra:// URLs of the CLI: mistakes are LifespanErrors, and both spellings of a password are masked. */
import { openCassandraUrl } from '../../src/providers/cassandra/from-url';
import { cassandraContact } from '../harness/cassandra';
import { describeStore } from '../harness/stores';

test('a malformed %-escape in the user or password is STORE_BAD_URL, not a URIError', async () => {
  await expect(openCassandraUrl('cassandra://us%zzer:pw@127.0.0.1:9042/ks')).rejects.toMatchObject({
    name: 'LifespanError',
    code: 'STORE_BAD_URL',
    message: expect.stringContaining('user name'),
  });
  await expect(openCassandraUrl('cassandra://user:p%@127.0.0.1:9042/ks')).rejects.toMatchObject({
    code: 'STORE_BAD_URL',
    message: expect.stringContaining('password'),
  });
});

describeStore('cassandra', 'cassandra URL (live)', () => {
  it('masks the password as typed and as decoded', async () => {
    // The harness node does not check credentials; the driver still sends them.
    const opened = await openCassandraUrl(`cassandra://lifespan:se%40cret@${cassandraContact()}/system`);
    try {
      expect([...opened.secrets].sort()).toEqual(['se%40cret', 'se@cret']);
      expect(opened.store.describe()).not.toContain('cret');
    } finally {
      await opened.dispose();
    }
  });
});
