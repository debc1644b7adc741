/**
 * Examples under each command's --help: the lines a first-time user copies. `--store <name>`
 * uses the store keys `lifespan init` writes (sqlite, postgres, redis, ...); a URL is quoted, as
 * a shell needs its `?`.
 */
export const HELP_EXAMPLES: Readonly<Record<string, readonly string[]>> = {
  init: ['lifespan init', 'lifespan init --store postgres,redis'],
  explain: [
    'lifespan explain src/models.ts                     # the configured stores (lifespan.config.ts)',
    'lifespan explain src/models.ts --store relational,redis --emulate',
    'lifespan explain --store sqlite --format markdown  # a live store of the config (as init names it), with its drift',
  ],
  plan: [
    'lifespan plan',
    'lifespan plan --counts --format markdown > ttl-plan.md',
    'lifespan plan --check                              # exit 1 on drift (CI)',
    "lifespan plan --url 'sqlite:./dev.db?ttl=emulate' --models src/models.ts",
  ],
  apply: ['lifespan apply', 'lifespan apply --yes --allow-retroactive   # deploy job, after review'],
  purge: ['lifespan purge', 'lifespan purge --store sqlite --batch 1000'],
  snapshot: [
    'lifespan snapshot                                  # the configured stores',
    'lifespan snapshot --store relational,redis --emulate',
  ],
  diff: [
    'lifespan diff --check                              # exit 1: snapshot not updated',
    'lifespan diff --base origin/main --format markdown > ttl-change.md',
  ],
  expiry: [
    'lifespan expiry                                    # how many stored records expire when',
    'lifespan expiry --buckets 1h,1d,7d --format markdown',
    'lifespan expiry --store redis --cap 50000          # a larger walk where the store samples',
  ],
  demo: ['lifespan demo'],
};

export function examplesOf(command: string): string {
  const lines = HELP_EXAMPLES[command] ?? [];
  return lines.length === 0 ? '' : `\nExamples:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
}
