import 'reflect-metadata';

/** The class behind a legacy property decorator's target (the prototype, or the class for statics). */
export function classOf(target: object): object {
  return typeof target === 'function' ? target : (target as { constructor: object }).constructor;
}

/** The member's type as TypeScript's emitDecoratorMetadata recorded it (legacy decorators only). */
export function designTypeOf(target: object, member: string | symbol): unknown {
  return Reflect.getMetadata('design:type', target, member);
}
