/**
 * Issue 26: the @Version member (decorator and fluent) in the model, and the model errors when it
 * is misused: a member that is not a number, nullable or part of the key, two version members.
 */
import 'reflect-metadata';
import { Entity, Field, Key, ModelBuilder, ModelError, Version } from '../../src';
import { thrown } from './thrown';

@Entity()
class Decorated {
  @Key() id = '';
  @Version() version = 0;
}

class Plain {
  id = '';
  rev = 0;
  label = '';
}

describe('@Version / .version()', () => {
  test('a decorated version member is recorded as an integer field', () => {
    const entity = new ModelBuilder().entity(Decorated).build().entities[0];
    expect(entity?.version).toBe('version');
    expect(entity?.fields).toContainEqual({
      member: 'version',
      storedName: 'version',
      type: 'integer',
      nullable: false,
    });
  });

  test('fluent .version() records the same, and an entity without one has version null', () => {
    const model = new ModelBuilder().entity(Plain, (e) => e.key((x) => x.id).version((x) => x.rev)).build();
    expect(model.entities[0]?.version).toBe('rev');
    const none = new ModelBuilder().entity(Plain, (e) => e.key((x) => x.id).field((x) => x.rev)).build();
    expect(none.entities[0]?.version).toBeNull();
  });

  test.each([
    ['a string member', (e: Cfg) => e.key((x) => x.id).version((x) => x.label as never, { type: 'string' })],
    ['a key member', (e: Cfg) => e.key((x) => x.id).version((x) => x.id as never)],
  ])('%s is MODEL_VERSION_NOT_NUMERIC naming the member', (_label, configure) => {
    const error = thrown(() => new ModelBuilder().entity(Plain, configure).build());
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).problems).toContainEqual(
      expect.objectContaining({ code: 'MODEL_VERSION_NOT_NUMERIC', entity: 'Plain' }),
    );
  });

  test('a nullable decorated version is MODEL_VERSION_NOT_NUMERIC naming it', () => {
    @Entity()
    class Nullable {
      @Key() id = '';
      @Field({ type: 'integer', nullable: true }) @Version() version: number | null = 0;
    }
    const error = thrown(() => new ModelBuilder().entity(Nullable).build()) as ModelError;
    expect(error.problems).toContainEqual(
      expect.objectContaining({ code: 'MODEL_VERSION_NOT_NUMERIC', entity: 'Nullable', member: 'version' }),
    );
    expect(error.message).toMatch(/version member 'version' is nullable/);
  });

  test('a non-numeric decorated version is MODEL_VERSION_NOT_NUMERIC', () => {
    @Entity()
    class Textual {
      @Key() id = '';
      @Field({ type: 'string' }) @Version() version = '';
    }
    const error = thrown(() => new ModelBuilder().entity(Textual).build()) as ModelError;
    expect(error.problems).toContainEqual(
      expect.objectContaining({ code: 'MODEL_VERSION_NOT_NUMERIC', member: 'version' }),
    );
    expect(error.message).toMatch(/version member 'version' is string, not a number/);
  });

  test('two version members are MODEL_VERSION_DECLARED_TWICE', () => {
    @Entity()
    class Twice {
      @Key() id = '';
      @Version() a = 0;
      @Version() b = 0;
    }
    const error = thrown(() => new ModelBuilder().entity(Twice).build()) as ModelError;
    expect(error.problems).toContainEqual(
      expect.objectContaining({ code: 'MODEL_VERSION_DECLARED_TWICE', member: 'b' }),
    );
  });
});

type Cfg = import('../../src/model/entity-configurator').EntityConfigurator<Plain>;
