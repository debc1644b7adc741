import type { Io } from './io';

/** Who the CLI talks to: a config user edits lifespan.config.ts, a --url user edits the URL. */
export type Reader = 'config' | 'url';

/**
 * The library's hints name options (`allowDestructive`, `plan({ counts: true })`, `ttl: 'emulate'`):
 * the words of a program's author. Printed by the CLI, they become the flags and URL options the
 * person at the terminal types. Longer phrases first: each rule rewrites a whole phrase.
 */
const FLAG_WORDS: readonly (readonly [RegExp, string])[] = [
  [/apply\(plan, \{ allowDestructive: true \}\) \(CLI: --allow-destructive\)/g, 'lifespan apply --allow-destructive'],
  [/apply it with \{ allowRetroactive: true \} \(CLI: --allow-retroactive\)/g, 'apply it with --allow-retroactive'],
  [/review plan\(\{ counts: true \}\)/g, 'review lifespan plan --counts'],
  [/plan\(\{ allowDestructive: true \}\)/g, 'lifespan plan --allow-destructive'],
  [/\b(plan|apply) with allowDestructive\b/g, '$1 with --allow-destructive'],
  [/\ballowDestructive or not\b/g, '--allow-destructive or not'],
  [/ensureCollections\(\{ allowRetroactive: true \}\)/g, 'lifespan apply --allow-retroactive'],
];

/** For a --url user, the relational TTL mode is the URL's `ttl` option. */
const URL_WORDS: readonly (readonly [RegExp, string])[] = [
  [
    /create the RelationalStore with ttl: 'emulate'/g,
    'add ?ttl=emulate to the --url (e.g. sqlite:./app.db?ttl=emulate)',
  ],
  [/\(relational with ttl: 'emulate'\)/g, '(a relational --url with ?ttl=emulate)'],
  [/\b(choose|use) ttl: 'emulate'/g, '$1 ?ttl=emulate on the --url'],
];

export function inCliWords(text: string, reader: Reader): string {
  const rules = reader === 'url' ? [...FLAG_WORDS, ...URL_WORDS] : FLAG_WORDS;
  return rules.reduce((t, [pattern, words]) => t.replace(pattern, words), text);
}

/** The Io with every line it prints in the reader's words. */
export function cliWordsIo(io: Io, reader: Reader): Io {
  return { ...io, out: (t) => io.out(inCliWords(t, reader)), err: (t) => io.err(inCliWords(t, reader)) };
}

/** The reader of a command line: a --url anywhere makes it a URL user. */
export function readerOf(argv: readonly string[]): Reader {
  return argv.some((a) => a === '--url' || a.startsWith('--url=')) ? 'url' : 'config';
}
