// 400 entities: an explain output far larger than a pipe's buffer, to see `| head` close the pipe mid-write.
const { ModelBuilder } = require('lifespan-orm');

const builder = new ModelBuilder();
for (let i = 0; i < 400; i += 1) {
  const Entity = { [`Entity${i}`]: class {} }[`Entity${i}`];
  builder.entity(Entity, (e) =>
    e
      .toCollection(`table_${i}`)
      .key((x) => x.id, { type: 'string' })
      .createdAt((x) => x.createdAt)
      .timeToLive(3600 + i),
  );
}
exports.model = builder.build();
