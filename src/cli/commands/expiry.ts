import type { Command } from 'commander';
import { connect } from '../../connect';
import { forecastSpec, type ExpiryForecastOptions } from '../../core/forecast';
import { LifespanError } from '../../errors';
import type { ExpiryForecastReport } from '../../explain/forecast-report';
import { EXIT_OK } from '../exit-codes';
import type { Io } from '../io';
import { parseFormat, usage } from '../options';
import type { TargetOptions } from '../targets';
import { withTargets } from './with-targets';

/** Version of the `--format json` shape of `lifespan expiry`. */
export const EXPIRY_JSON_VERSION = 1;

export interface ExpiryCommandOptions extends TargetOptions {
  readonly format?: string;
  readonly buckets?: string;
  readonly cap?: string;
}

/** The `lifespan expiry` command on a target command (main.ts adds the target options). */
export function registerExpiryCommand(command: Command, io: Io, setExit: (code: number) => void): Command {
  return command
    .description('forecast, per entity and store, how many stored records are due, expire within each bucket, or never')
    .option('--format <format>', 'text, markdown or json', 'text')
    .option(
      '--buckets <list>',
      'bucket bounds, shortest first (default: 1h,1d,7d,30d; records after the last are "later")',
    )
    .option('--cap <n>', 'the most records a walk reads per entity where the store cannot aggregate (default: 10000)')
    .addHelpText(
      'after',
      '\nExamples:\n  lifespan expiry --format markdown\n  lifespan expiry --store cache --buckets 10m,1h,1d --cap 50000\n',
    )
    .action(async (options: ExpiryCommandOptions) => {
      setExit(await expiryCommand(options, io));
    });
}

/** `lifespan expiry`: the expiry forecast of every target store, checked before any is opened. */
export async function expiryCommand(options: ExpiryCommandOptions, io: Io): Promise<number> {
  const format = parseFormat(options.format);
  const forecast = forecastOptions(options);
  return withTargets(options, io, async ({ model, targets }, out) => {
    const reports: Array<{ name: string; store: string; report: ExpiryForecastReport }> = [];
    for (const target of targets) {
      const db = await connect(model, target.opened.store);
      try {
        reports.push({ name: target.name, store: db.store, report: await db.expiryForecast(forecast) });
      } finally {
        await db.close();
      }
    }
    if (format === 'json') {
      const stores = reports.map((r) => ({ name: r.name, store: r.store, entries: r.report.entries }));
      out.out(JSON.stringify({ version: EXPIRY_JSON_VERSION, stores }, null, 2) + '\n');
    } else if (format === 'markdown') {
      const sections = reports.map((r) => `## \`${r.name}\` (${r.store})\n\n${r.report.toMarkdown()}`);
      out.out(['# lifespan expiry', '', ...sections].join('\n\n') + '\n');
    } else {
      out.out(reports.map((r) => `${r.name} (${r.store}):\n${r.report.toText()}\n`).join('\n'));
    }
    return EXIT_OK;
  });
}

/** --buckets and --cap as forecast options, refused in the CLI's words before anything connects. */
function forecastOptions(options: ExpiryCommandOptions): ExpiryForecastOptions {
  const buckets = options.buckets?.split(',').map((b) => b.trim());
  const cap = options.cap === undefined ? undefined : /^\d+$/.test(options.cap) ? Number(options.cap) : NaN;
  const given: ExpiryForecastOptions = { ...(buckets ? { buckets } : {}), ...(cap === undefined ? {} : { cap }) };
  try {
    forecastSpec(given, 'cli');
  } catch (error) {
    if (!(error instanceof LifespanError)) throw error;
    const flag = /cap/.test(error.detail) ? `--cap ${options.cap ?? ''}` : `--buckets ${options.buckets ?? ''}`;
    throw usage(
      `${flag}: ${error.detail.replace(/^expiryForecast\(\) /, '')}`,
      'e.g. --buckets 1h,1d,7d,30d --cap 10000',
    );
  }
  return given;
}
