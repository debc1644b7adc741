import { connect, explain, LifespanError, ModelBuilder } from '../../src';

test.each([[undefined], [null], [{}], [new ModelBuilder()]])('explain(%p) is a usage error, not a crash', (value) => {
  expect(() => explain(value as never)).toThrow(LifespanError);
  expect(() => explain(value as never)).toThrow(/explain\(\) needs a built Model/);
});

test('connect() checks its arguments', async () => {
  await expect(connect(undefined as never, undefined as never)).rejects.toThrow(
    /connect\(\) needs a built Model, got undefined/,
  );
  const model = new ModelBuilder().build();
  await expect(connect(model, {} as never)).rejects.toThrow(/connect\(\) needs a store, got an object \(Object\)/);
});

test('explain() of an unknown store names it', () => {
  expect(() => explain(new ModelBuilder().build(), { stores: ['dynamodb' as never] })).toThrow(
    /'dynamodb' is not a store/,
  );
});
