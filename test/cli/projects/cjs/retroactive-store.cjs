// A stand-in Cosmos container holding 5 items that a 1h → 5m change would expire at once: the
// in-process Cosmos server cannot hold items older than 5 minutes, and the CLI's consent rule is
// what is under test here. apply() appends to FIXTURE_APPLIED so the test sees whether it ran.
const fs = require('node:fs');

const step = {
  entity: 'Token',
  collection: 'tokens',
  action: 'set-default-ttl',
  class: 'in-place',
  summary: "container 'tokens': DefaultTimeToLive 3600 → 300",
  command: 'container.replace({ ...resource, defaultTtl: 300 })',
  ttl: { from: 3600, to: 300 },
  payload: null,
};

exports.retroactiveStore = {
  name: 'cosmos',
  describe: () => "stand-in Cosmos database 'app'",
  async open() {
    return {
      store: 'cosmos',
      explain: () => [],
      async plan(options = {}) {
        const affected = options.counts ? { affected: 5 } : {};
        const effect = {
          kind: 'retroactive',
          text: 'items last written more than 300s ago expire at once',
          verified: true,
          ...affected,
        };
        return { store: 'cosmos', target: "stand-in Cosmos database 'app'", steps: [{ ...step, effect }] };
      },
      async apply(plan) {
        fs.appendFileSync(process.env.FIXTURE_APPLIED, `${plan.steps.length}\n`);
        return { applied: plan.steps };
      },
      async close() {},
    };
  },
};
