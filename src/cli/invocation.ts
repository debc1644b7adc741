import * as path from 'node:path';

/**
 * The folder the command was run in. Once a config is found the process works in the config's
 * folder (so the config's relative paths mean what they mean to the application); the CLI's own
 * path arguments were resolved against this folder before, and output names files relative to it.
 */
let invocationDir = process.cwd();

/** Remembers the folder the command was run in (run() calls it first). */
export function startInvocation(dir = process.cwd()): void {
  invocationDir = dir;
}

export function invocationFolder(): string {
  return invocationDir;
}

/** A path as the reader typed it: relative to the folder the command was run in. */
export function shown(file: string): string {
  return path.relative(invocationDir, file) || file;
}

/** A path argument of the CLI, resolved against the folder the command was run in. */
export function fromInvocation(file: string): string {
  return path.resolve(invocationDir, file);
}
