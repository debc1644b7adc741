/** What `fn` throws, or undefined: for asserting on an error's class, code and message together. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}
