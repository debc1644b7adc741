import { styleText } from 'node:util';

type Style = Parameters<typeof styleText>[0];

/**
 * Colour only on a terminal (or with FORCE_COLOR), never with NO_COLOR or --no-color
 * (https://no-color.org). Node 20's styleText does not check the stream itself.
 */
export function colourWanted(argv: readonly string[], env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (argv.includes('--no-color') || (env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb') return false;
  const forced = env.FORCE_COLOR;
  if (forced !== undefined && forced !== '') return forced !== '0' && forced !== 'false';
  return isTty;
}

export type Paint = (style: Style, text: string) => string;

export function painter(on: boolean): Paint {
  return on ? (style, text) => styleText(style, text) : (_style, text) => text;
}

const STEP_STYLES: Record<string, Style> = {
  additive: 'green',
  'in-place': 'yellow',
  destructive: 'red',
  conflict: 'red',
};

/** The plan text with step classes and "in sync" coloured; the words stay as they are. */
export function paintPlanText(text: string, paint: Paint): string {
  return text
    .replace(/\[(additive|in-place|destructive|conflict)\]/g, (all, kind: string) =>
      paint(STEP_STYLES[kind] ?? 'bold', all),
    )
    .replace(/in sync with the model/g, (all) => paint('green', all));
}
