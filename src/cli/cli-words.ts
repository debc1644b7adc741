import type { Io } from './io';
import { displayUrl } from './mask';

/**
 * Who the CLI talks to: a config user edits lifespan.config.ts, a --url user edits the URL (an
 * example is made from the user's own URL, scheme and path, without its query and password).
 */
export type Reader = { readonly kind: 'config' } | { readonly kind: 'url'; readonly example: string };

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
function urlWords(example: string): readonly (readonly [RegExp, string])[] {
  return [
    [/create the RelationalStore with ttl: 'emulate'/g, `add ?ttl=emulate to the --url (e.g. ${example})`],
    [/\(relational with ttl: 'emulate'\)/g, '(a relational --url with ?ttl=emulate)'],
    [/\b(choose|use) ttl: 'emulate'/g, '$1 ?ttl=emulate on the --url'],
  ];
}

export function inCliWords(text: string, reader: Reader): string {
  const rules = reader.kind === 'url' ? [...FLAG_WORDS, ...urlWords(reader.example)] : FLAG_WORDS;
  return rules.reduce((t, [pattern, words]) => t.replace(pattern, words), text);
}

/**
 * The Io with its messages in the reader's words: errors, hints and notes (stderr) always, the
 * report (stdout) only in text and markdown. JSON is for programs and keeps the library's words,
 * and the demo's output is the library's own.
 */
export function cliWordsIo(io: Io, reader: Reader, argv: readonly string[]): Io {
  const report = !isJson(argv) && argv[0] !== 'demo';
  return {
    ...io,
    out: report ? (t) => io.out(inCliWords(t, reader)) : io.out,
    err: (t) => io.err(inCliWords(t, reader)),
  };
}

function isJson(argv: readonly string[]): boolean {
  return argv.some((a, i) => a === '--format=json' || (a === '--format' && argv[i + 1] === 'json'));
}

/** The reader of a command line: a --url anywhere makes it a URL user. */
export function readerOf(argv: readonly string[]): Reader {
  const at = argv.findIndex((a) => a === '--url' || a.startsWith('--url='));
  if (at < 0) return { kind: 'config' };
  const url = argv[at]?.startsWith('--url=') ? argv[at].slice('--url='.length) : (argv[at + 1] ?? '');
  return { kind: 'url', example: `${displayUrl(url.split('?')[0] ?? url)}?ttl=emulate` };
}
