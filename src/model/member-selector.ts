import { ModelError } from '../errors';

/** A typed member selector such as `x => x.lastSeenAt`; checked by the compiler, read at run time. */
export type MemberSelector<T, V = unknown> = (entity: T) => V;

/** Runs the selector against a recording proxy and returns the one member it read. */
export function memberName<T>(selector: MemberSelector<T>, entity: string): string {
  const seen: string[] = [];
  // Every read, at any depth, is recorded: `x => x.id.length` reads two members and is refused.
  const recorder: object = new Proxy(
    {},
    {
      get(_target, property) {
        // Conversions (template literals, `+`) are not member reads.
        if (typeof property !== 'string') return undefined;
        if (property === 'toString' || property === 'valueOf') return () => '';
        seen.push(property);
        return recorder;
      },
    },
  );
  try {
    selector(recorder as T);
  } catch {
    // A selector that uses the value (x => `${x.a}`) may throw on the recorder; reported below.
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
