#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { LifespanError, ModelError } from '../errors';
import { explainCommand } from './commands/explain';
import { demoCommand } from './commands/demo';
import { EXIT_FAILURE, EXIT_MODEL, EXIT_OK, EXIT_USAGE } from './exit-codes';
import { isModelError } from './load-module';

export interface Io {
  out(text: string): void;
  err(text: string): void;
}

export function buildProgram(io: Io): Command {
  const write = io.out;
  const program = new Command('lifespan')
    .description('Compile @TimeToLive to each store’s native expiry and explain what the store will do.')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('explain')
    .description('explain, per entity and store, what the store natively does with the TTL')
    .argument('<models-file>', '.js, .cjs, .mjs or .ts file exporting a built Model (as `model` or default)')
    .option('--store <names>', 'comma-separated: cosmos,cassandra,mongodb,relational (default: all)')
    .option('--format <format>', 'text, markdown or json', 'text')
    .option('--emulate', 'explain the relational store with ttl: emulate')
    .action(async (file: string, options: { store?: string; format?: string; emulate?: boolean }) => {
      write(await explainCommand(file, options));
    });

  program
    .command('demo')
    .description('the main job on the embedded default: explain the examples, then run them on SQLite')
    .option('--file <path>', 'SQLite file for the demo', '.lifespan-demo/demo.db')
    .action(async (options: { file: string }) => {
      await demoCommand(options.file, (line) => write(`${line}\n`));
    });

  return program;
}

/** Runs the CLI and returns the exit code instead of exiting, so tests can call it in-process. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    return reportError(error, io.err);
  }
}

function reportError(error: unknown, write: (text: string) => void): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof ModelError || isModelError(error)) {
    write(`${(error as Error).message}\n`);
    return EXIT_MODEL;
  }
  if (error instanceof LifespanError) {
    write(`error [${error.code}]: ${error.message}\n`);
    return error.code.startsWith('CLI_') ? EXIT_USAGE : EXIT_FAILURE;
  }
  write(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  return EXIT_FAILURE;
}

if (require.main === module) {
  const io: Io = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };
  void run(process.argv.slice(2), io).then((code) => {
    process.exitCode = code;
  });
}
