// Plain CommonJS, fluent builder (no decorators).
const { ModelBuilder } = require('lifespan-orm');

class Token {
  constructor() {
    this.id = '';
    this.issuedAt = new Date(0);
  }
}

exports.model = new ModelBuilder()
  .entity(Token, (e) =>
    e
      .toCollection('tokens')
      .key((t) => t.id, { type: 'string' })
      .createdAt((t) => t.issuedAt)
      .timeToLive(process.env.FIXTURE_TTL ?? '15m'),
  )
  .build();
