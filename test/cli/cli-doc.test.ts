import { buildProgram } from '../../src/cli/main';
import { EXIT_CODE_HELP } from '../../src/cli/exit-codes';

const { renderCliReference } = require('../../scripts/docs/render-cli') as {
  renderCliReference: (program: ReturnType<typeof buildProgram>) => string;
};

/** Review item 15: docs/cli.md states the exit codes the program uses, from the program's own help. */
test('the CLI reference carries the exit-code table of src/cli/exit-codes.ts, not a hand-written one', () => {
  const io = { out: () => undefined, err: () => undefined, isTty: false, confirm: async () => false };
  const text = renderCliReference(buildProgram(io, () => undefined));
  expect(text).toContain(EXIT_CODE_HELP);
  expect(text).not.toContain('3 other failures');
});
