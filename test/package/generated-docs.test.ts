/**
 * docs/cli.md and docs/errors.md are generated (scripts/docs/); this fails when the CLI's
 * definitions or the error codes changed and the pages were not regenerated with `npm run docs`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildProgram } from '../../src/cli/main';
import { ERROR_CODE_TABLE } from '../../src/error-codes';

const ROOT = path.resolve(__dirname, '..', '..');
const { renderCliReference } = require('../../scripts/docs/render-cli') as {
  renderCliReference: (program: ReturnType<typeof buildProgram>) => string;
};
const { renderErrorCodes } = require('../../scripts/docs/render-errors') as {
  renderErrorCodes: (src: string) => string;
};

function page(file: string): string {
  const full = path.join(ROOT, file);
  return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : `(no ${file}: run npm run docs)`;
}

describe('generated reference pages (npm run docs)', () => {
  test('docs/cli.md is the reference of the CLI program as it is built', () => {
    const io = { out: () => undefined, err: () => undefined, isTty: false, confirm: async () => false };
    const program = buildProgram(io, () => undefined);
    const text = renderCliReference(program);
    // The page is read from the program object: every command it defines has a section.
    for (const command of program.commands) expect(text).toContain(`lifespan ${command.name()} `);
    expect(page('docs/cli.md')).toBe(text);
  });

  test('docs/errors.md lists every code of the one code table, with its class and CLI exit code', () => {
    const text = renderErrorCodes(path.join(ROOT, 'src'));
    const table = ERROR_CODE_TABLE as Record<string, { family: string }>;
    for (const [code, { family }] of Object.entries(table)) expect(text).toContain(`\`${code}\` | ${family} |`);
    expect(text).toContain('| `CASSANDRA_TTL_PAST_CEILING` | TtlError | 3 (model) |');
    expect(text).toContain('| `CLI_LOAD_FAILED` | LifespanError | 5 (user-code) |');
    expect(page('docs/errors.md')).toBe(text);
  });
});
