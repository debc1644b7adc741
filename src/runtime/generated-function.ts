/**
 * A function made once from source text, for a hot path that a loop or a spread call keeps V8
 * from optimizing (one call site for many targets, a keyed access for many names, an API call
 * of unknown arity). `values` are bound to `names` in its scope. Null where code generation from
 * strings is disallowed (`node --disallow-code-generation-from-strings`, or a host that forbids
 * it): the caller keeps its plain version then. Every piece of `body` that comes from a model
 * (a member name) must enter it as a JSON string literal.
 */
export function generatedFunction<F>(
  names: readonly string[],
  values: readonly unknown[],
  args: string,
  body: string,
): F | null {
  try {
    const make = new Function(...names, `'use strict'; return function (${args}) {\n${body}\n};`);
    return make(...values) as F;
  } catch (error) {
    // A SyntaxError is a defect of the body lifespan made: raised, not hidden behind the slow path.
    if (error instanceof SyntaxError) throw error;
    // EvalError in node; a hardened host (SES lockdown) may throw another kind.
    return null;
  }
}
