'use strict';
/**
 * `node test/servers/cassandra/fetch.js`: resolve cassandra-all (version pinned in pom.xml) and its
 * runtime dependencies from Maven Central into .cassandra/lib. Does nothing when already there.
 */
const { ensureJars, LIB_DIR } = require('./node');

ensureJars((msg) => console.log(`[cassandra] ${msg}`)).then(
  ({ skipped, seconds, version }) => {
    console.log(
      skipped
        ? `[cassandra] ${LIB_DIR} already holds cassandra-all ${version}`
        : `[cassandra] resolved cassandra-all ${version} in ${seconds.toFixed(1)}s`,
    );
  },
  (err) => {
    console.error(err.message);
    process.exit(1);
  },
);
