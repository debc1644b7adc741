import { ModelError } from '../errors';

/** A typed member selector such as `x => x.lastSeenAt`; checked by the compiler, read at run time. */
export type MemberSelector<T, V = unknown> = (entity: T) => V;

/** Runs the selector against a recording proxy and returns the one member it read. */
export function memberName<T>(selector: MemberSelector<T>, entity: string): string {
  const seen: string[] = [];
  const recorder = new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property === 'string') seen.push(property);
        return undefined;
      },
    },
  );
  try {
    selector(recorder as T);
  } catch {
    // A selector that goes deeper than one member (x => x.a.b) throws on undefined; reported below.
  }
  const [member] = seen;
  if (seen.length !== 1 || member === undefined) {
    throw new ModelError([
      {
        code: 'MODEL_BAD_SELECTOR',
        entity,
        message: `a member selector must read exactly one member (read: ${seen.join(', ') || 'none'})`,
        hint: 'write it as x => x.member',
      },
    ]);
  }
  return member;
}
