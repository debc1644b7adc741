/**
 * A value as error messages show it. It never throws: a value handed to lifespan can be a bigint,
 * a symbol, a null-prototype object, an object whose toString is not a function, or one whose
 * getters throw, and a message about bad input must not fail with a TypeError of its own.
 */
const MAX_SHOWN = 120;

export function showValue(value: unknown): string {
  const text = render(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

function render(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'bigint':
      return `${value}n`;
    case 'symbol':
      return value.description === undefined ? 'Symbol()' : `Symbol(${value.description})`;
    case 'function':
      return `a function${value.name ? ` (${value.name})` : ''}`;
    case 'object':
      return value === null ? 'null' : renderObject(value);
  }
}

function renderObject(value: object): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    if (json !== undefined) return json;
  } catch {
    // Cycles, throwing getters or toJSON: fall through to a description of the object.
  }
  return `an object (${safeClassName(value)})`;
}

/** The class name of an object, or 'Object' for a plain, null-prototype or exotic one. */
export function safeClassName(value: object): string {
  try {
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto === null) return 'null prototype';
    const ctor = (proto as { constructor?: unknown }).constructor;
    return typeof ctor === 'function' && ctor.name ? ctor.name : 'Object';
  } catch {
    return 'Object';
  }
}
