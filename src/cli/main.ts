#!/usr/bin/env node
import * as readline from 'node:readline/promises';
import { Command, CommanderError, Option } from 'commander';
import { LifespanError, ModelError } from '../errors';
import { applyCommand } from './commands/apply';
import { demoCommand } from './commands/demo';
import { diffCommand } from './commands/diff';
import { explainCommand } from './commands/explain';
import { initCommand } from './commands/init';
import { registerExpiryCommand } from './commands/expiry';
import { planCommand } from './commands/plan';
import { purgeCommand } from './commands/purge';
import { snapshotCommand } from './commands/snapshot';
import { maskError } from './commands/with-targets';
import { cliWordsIo, readerOf } from './cli-words';
import { colourWanted, painter } from './colour';
import { EXIT_CODE_HELP, EXIT_OK, EXIT_USAGE, exitCodeFor } from './exit-codes';
import { examplesOf } from './help-examples';
import { INIT_STORES } from './init/store-templates';
import { fromInvocation, startInvocation } from './invocation';
import type { Io } from './io';
import { isModelError } from './load-module';
import { maskingIo } from './masking-io';
import { packageVersion } from '../package-version';
import { STORE_NAMES } from '../providers/registry';
import { urlExamples } from '../providers/url-openers';

function targetOptions(command: Command): Command {
  return command
    .option('--config <file>', 'config module exporting { model, stores } (default: ./lifespan.config.ts|.js)')
    .option('--store <name>', 'a store named in the config (default: every configured store)')
    .option('--url <url>', `quick target: ${urlExamples().join(', ')}`)
    .option('--models <file>', 'models file to use with --url (default: the config’s model)');
}

export function buildProgram(io: Io, setExit: (code: number) => void): Command {
  const program = new Command('lifespan')
    .description('Compile @TimeToLive to each store’s native expiry and explain what the store will do.')
    .version(packageVersion(), '-V, --version', 'print the lifespan version')
    .option('--verbose', 'print the stack of an error and of its cause')
    .addOption(new Option('--no-color', 'no colour (also: NO_COLOR=1)'))
    .addHelpText('after', `\n${EXIT_CODE_HELP}\n`)
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err });

  program
    .command('explain')
    .description('explain, per entity and store, what the store natively does with the TTL')
    .argument(
      '[models-file]',
      'a .ts/.mts/.cts/.js/.mjs/.cjs file exporting a built Model; omit to explain live stores',
    )
    .option('--store <names>', `with a models file: ${STORE_NAMES.join(',')}; without: a configured store`)
    .option('--format <format>', 'text, markdown or json', 'text')
    .option('--emulate', 'explain the relational store with ttl: emulate')
    .option('--config <file>', 'config module: its stores (offline) or its live store (no models file)')
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
    .description('apply the plan in place; outside a terminal only with --yes')
    .option('--allow-destructive', 'allow steps that drop or recreate (data is lost)')
    .option('--allow-retroactive', 'allow steps that make records already stored expire at once')
    .option('--allow-unexpiry', 'allow steps that make records due but still stored readable again')
    .option('--yes', 'do not ask for confirmation (required outside a terminal)')
    .action(async (options: Record<string, string | boolean>) => {
      setExit(await applyCommand(options, io));
    });

  registerExpiryCommand(targetOptions(program.command('expiry')), io, setExit);

  targetOptions(program.command('purge'))
    .description('delete expired rows of stores that emulate TTL, in batches')
    .option('--now <iso>', 'judge expiry at this instant (default: the database clock)')
    .option('--batch <n>', 'rows per batch')
    .option('--yes', 'allow a --now later than the database clock (deletes rows that are still live)')
    .action(async (options: Record<string, string>) => {
      setExit(await purgeCommand(options, io));
    });

  program
    .command('snapshot')
    .description(
      'write the compiled model of the configured stores (else every kind) to a snapshot file to commit (no connection)',
    )
    .option('--config <file>', 'config module whose model to snapshot')
    .option('--models <file>', 'models file to snapshot')
    .option('--file <path>', 'snapshot file (default: lifespan.snapshot.json beside the config)')
    .option('--store <kinds>', 'store kinds to snapshot (default: the config’s stores, else all)')
    .option('--emulate', 'snapshot the relational store with ttl: emulate')
    .action(async (options: Record<string, string | boolean>) => {
      setExit(await snapshotCommand(options, io));
    });

  program
    .command('diff')
    .description('what the model change does per store, offline: against the snapshot file or a git ref')
    .option('--config <file>', 'config module whose model to compare')
    .option('--models <file>', 'models file to compare')
    .option('--file <path>', 'snapshot file to compare against (default: lifespan.snapshot.json beside the config)')
    .option('--base <git-ref>', 'compare against the models at this git ref (e.g. origin/main) instead')
    .option('--store <kinds>', 'store kinds to compare (default: the config’s stores, else the snapshot’s)')
    .option('--emulate', 'compare the relational store with ttl: emulate')
    .option('--format <format>', 'text, markdown or json', 'text')
    .option('--check', 'exit 1 when the model differs from the snapshot (for CI)')
    .action(async (options: Record<string, string | boolean>) => {
      setExit(await diffCommand(options, io));
    });

  program
    .command('init')
    .description('write lifespan.config.ts, an example model, the first snapshot and a CI job (never overwrites)')
    .option('--store <names>', `stores to configure: ${INIT_STORES.join(',')}`, 'sqlite')
    .action(async (options: Record<string, string>) => {
      setExit(await initCommand(options, io));
    });

  program
    .command('demo')
    .description('the main job on the embedded default: explain the examples, then run them on SQLite')
    .option('--file <path>', 'SQLite file for the demo', '.lifespan-demo/demo.db')
    .action(async (options: { file: string }) => {
      await demoCommand(options.file, (line) => io.out(`${line}\n`));
    });

  for (const command of program.commands) command.addHelpText('after', examplesOf(command.name()));
  program.hook('preAction', (_program, action) => resolvePathArguments(action));
  return program;
}

/** Options naming files; resolved before a config moves the process into its own folder. */
const PATH_OPTIONS = ['config', 'models', 'file'] as const;

function resolvePathArguments(action: Command): void {
  for (const name of PATH_OPTIONS) {
    const value: unknown = action.getOptionValue(name);
    if (typeof value === 'string') action.setOptionValue(name, fromInvocation(value));
  }
  if (action.name() === 'explain' && typeof action.processedArgs[0] === 'string') {
    action.processedArgs[0] = fromInvocation(action.processedArgs[0]);
  }
}

/** Runs the CLI and returns the exit code instead of exiting, so tests can call it in-process. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const startedIn = process.cwd();
  startInvocation(startedIn);
  try {
    return await runIn(argv, io);
  } finally {
    process.chdir(startedIn);
  }
}

async function runIn(argv: readonly string[], io: Io): Promise<number> {
  const masked = maskingIo(cliWordsIo(io, readerOf(argv), argv));
  const masker = masked.masker;
  let code = EXIT_OK;
  try {
    await buildProgram(masked, (c) => (code = c)).parseAsync([...argv], { from: 'user' });
    return code;
  } catch (error) {
    maskError(error, masker);
    return reportError(error, masked, argv.includes('--verbose'));
  }
}

function reportError(error: unknown, io: Io, verbose: boolean): number {
  if (error instanceof CommanderError) {
    return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  const paint = io.paintErr ?? ((_s: unknown, t: string) => t);
  if (error instanceof ModelError || isModelError(error)) {
    io.err(`${(error as Error).message}\n`);
  } else if (error instanceof LifespanError) {
    io.err(`${paint('red', 'error')} [${error.code}]: ${error.message}\n`);
  } else {
    const message = error instanceof Error ? error.message : String(error);
    io.err(`${paint('red', 'internal error')}: ${message} (a defect in lifespan; run with --verbose and report it)\n`);
  }
  if (verbose) io.err(`${stacks(error)}\n`);
  return exitCodeFor(error);
}

function stacks(error: unknown): string {
  const parts: string[] = [];
  for (let e = error, depth = 0; e !== undefined && depth < 6; e = (e as { cause?: unknown }).cause, depth += 1) {
    parts.push(`${depth === 0 ? '' : 'caused by: '}${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
  return parts.join('\n');
}

function terminalIo(argv: readonly string[]): Io {
  const isTty = Boolean(process.stdout.isTTY && process.stdin.isTTY);
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    isTty,
    paint: painter(colourWanted(argv, process.env, Boolean(process.stdout.isTTY))),
    paintErr: painter(colourWanted(argv, process.env, Boolean(process.stderr.isTTY))),
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
  // `lifespan plan | head`: the reader went away; that is the reader's choice, not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(EXIT_OK);
    throw error;
  });
  const argv = process.argv.slice(2);
  void run(argv, terminalIo(argv)).then((code) => {
    // Exit once both streams are flushed (a pipe is written asynchronously: exiting at once cut
    // output at 64 KiB); exiting at all, because drivers a factory opened without a dispose()
    // would keep the process alive.
    process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
  });
}
