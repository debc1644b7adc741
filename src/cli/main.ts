#!/usr/bin/env node
import * as readline from 'node:readline/promises';
import { Command, CommanderError } from 'commander';
import { LifespanError, ModelError } from '../errors';
import { applyCommand } from './commands/apply';
import { demoCommand } from './commands/demo';
import { explainCommand } from './commands/explain';
import { planCommand } from './commands/plan';
import { purgeCommand } from './commands/purge';
import { EXIT_FAILURE, EXIT_MODEL, EXIT_OK, EXIT_USAGE } from './exit-codes';
import type { Io } from './io';
import { isModelError } from './load-module';
import { packageVersion } from '../package-version';

function targetOptions(command: Command): Command {
  return command
    .option('--config <file>', 'config module exporting { model, stores } (default: ./lifespan.config.ts|.js)')
    .option('--store <name>', 'a store named in the config (default: every configured store)')
    .option(
      '--url <url>',
      'quick target: sqlite:./dev.db, postgres://…, mysql://…, mongodb://…, cassandra://host:9042/ks',
    )
    .option('--models <file>', 'models file to use with --url (default: the config’s model)');
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('lifespan')
    .description('Compile @TimeToLive to each store’s native expiry and explain what the store will do.')
    .version(packageVersion())
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('explain')
    .description('explain, per entity and store, what the store natively does with the TTL')
    .argument('[models-file]', 'a .js/.cjs/.mjs/.ts file exporting a built Model; omit to explain live stores')
    .option('--store <names>', 'with a models file: cosmos,cassandra,mongodb,relational; without: a configured store')
    .option('--format <format>', 'text, markdown or json', 'text')
    .option('--emulate', 'explain the relational store with ttl: emulate')
    .option('--config <file>', 'config module (live explain)')
    .option('--url <url>', 'quick live target (live explain)')
    .option('--models <file>', 'models file to use with --url')
    .action(async (file: string | undefined, options: Record<string, string | boolean>) => {
      await explainCommand(file, options, io);
    });

  targetOptions(program.command('plan'))
    .description('diff the live store(s) against the model: every step, its class and its effect on stored data')
    .option('--format <format>', 'text, markdown or json', 'text')
    .option('--counts', 'count the stored records each TTL change makes expire at once')
    .option('--check', 'exit 1 when a store has drifted from the model (for CI)')
    .option('--allow-destructive', 'plan drop-and-recreate steps instead of reporting conflicts')
    .action(async (options: Record<string, string | boolean>) => {
      setExit(await planCommand(options, io));
    });

  targetOptions(program.command('apply'))
    .description('apply the plan in place; destructive steps only with --allow-destructive')
    .option('--allow-destructive', 'allow steps that drop or recreate (data is lost)')
    .option('--yes', 'do not ask for confirmation')
    .action(async (options: Record<string, string | boolean>) => {
      setExit(await applyCommand(options, io));
    });

  targetOptions(program.command('purge'))
    .description('delete expired rows of stores that emulate TTL, in batches')
    .option('--now <iso>', 'judge expiry at this instant (default: the database clock)')
    .option('--batch <n>', 'rows per batch')
    .action(async (options: Record<string, string>) => {
      setExit(await purgeCommand(options, io));
    });

  program
    .command('demo')
    .description('the main job on the embedded default: explain the examples, then run them on SQLite')
    .option('--file <path>', 'SQLite file for the demo', '.lifespan-demo/demo.db')
    .action(async (options: { file: string }) => {
      await demoCommand(options.file, (line) => io.out(`${line}\n`));
    });

  return program;
}

/** Runs the CLI and returns the exit code instead of exiting, so tests can call it in-process. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  let code = EXIT_OK;
  try {
    await buildProgram(io, (c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
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

function terminalIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    isTty: Boolean(process.stdout.isTTY && process.stdin.isTTY),
    async confirm(question) {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
      try {
        return /^y(es)?$/i.test((await rl.question(question)).trim());
      } finally {
        rl.close();
      }
    },
  };
}

if (require.main === module) {
  void run(process.argv.slice(2), terminalIo()).then((code) => {
    // Drivers a config factory opened without a dispose() would keep the process alive.
    process.exit(code);
  });
}
