import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { closestName } from './closest-name';

/**
 * The one reader of store URLs (`--url` of the CLI). Every store declares, as data, the options
 * its URL takes: lifespan's own (read here and taken off before the driver sees the URL) and the
 * driver's (passed on as typed). Anything else is refused, as is an option given twice or an own
 * option with a value it does not take, so a typo never runs silently with a default. Messages
 * never repeat the URL or an option's value that may be a secret.
 */

/** One query option a store URL may carry. */
export interface UrlOption {
  /** `lifespan`: read by lifespan and taken off the driver's URL; `driver`: passed on to the driver. */
  readonly owner: 'lifespan' | 'driver';
  /** The values it takes; without it, any value (the driver checks its own). */
  readonly values?: readonly string[];
  /** It may be given more than once (a driver option that repeats). */
  readonly repeatable?: boolean;
  /** Its value is a credential: masked in all output, never repeated in a message. */
  readonly secret?: boolean;
  /** What is wrong with `value`, in words that do not repeat it; undefined when it is fine. */
  readonly check?: (value: string) => string | undefined;
  /** Why lifespan refuses the option although the driver reads it. */
  readonly refused?: string;
}

export type UrlOptions = Readonly<Record<string, UrlOption>>;

/** What one store's URLs look like. */
export interface StoreUrlForm {
  /** The `store` of every error. */
  readonly store: string;
  /** How messages name the URL: 'the <store> URL', 'the postgres: URL'. */
  readonly what: string;
  /** The form to write, for hints: '<scheme>://[user:password@]host:port[/db][?option=value]'. */
  readonly example: string;
  /** false: everything between the scheme and the options is the path (`sqlite:./dev.db`, `<scheme>:name`). */
  readonly authority: boolean;
  readonly options: UrlOptions;
  /** The driver reads option names in any case (some drivers do). */
  readonly caseInsensitiveOptions?: boolean;
  /** An undeclared option is passed on: the driver refuses the names it does not know. */
  readonly passUnknownOptions?: boolean;
}

/** A store URL taken apart; parts are as typed unless they say decoded. */
export interface StoreUrl {
  /** The scheme with its colon, lower case. */
  readonly scheme: string;
  /** Decoded user name, when the URL has one. */
  readonly user: string | undefined;
  /** Decoded password, when the URL has one. */
  readonly password: string | undefined;
  /** The password as typed (%-escaped), to mask that spelling too. */
  readonly rawPassword: string | undefined;
  /** The authority after the user information: one host or a comma-separated list. */
  readonly hosts: string;
  /** What follows the authority (or the scheme), without its leading '/' and without the options. */
  readonly path: string;
  /** lifespan's own options as given, by their declared names. */
  readonly own: ReadonlyMap<string, string>;
  /** The URL for the driver: lifespan's own options taken off, everything else as typed. */
  readonly driverUrl: string;
  /** The password as typed and decoded, and the values of options declared secret, for the masker. */
  readonly secrets: readonly string[];
}

/** The options a driver reads from its URL, passed on as typed (`special` adds to or replaces a plain one). */
export function driverOptions(
  names: readonly string[],
  special: Readonly<Record<string, Partial<UrlOption>>> = {},
): UrlOptions {
  const all = [...new Set([...names, ...Object.keys(special)])];
  return Object.fromEntries(all.map((name) => [name, { owner: 'driver', ...special[name] }]));
}

/** The values a yes/no option of lifespan's own takes, and how they read. */
export const YES_NO_VALUES = ['true', 'false', '1', '0'] as const;
export const isYes = (value: string | undefined): boolean => value === 'true' || value === '1';

/** A mistake in a store URL: a usage error of that store. */
export function badStoreUrl(store: string, message: string, hint: string, cause?: unknown): LifespanError {
  return new LifespanError(ErrorCodes.STORE_BAD_URL, message, {
    store,
    hint,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * The driver's URL read by the WHATWG URL parser, which the drivers use on it:
 * where that fails, they would fail late or take the URL for a file name. Not repeated.
 */
export function checkWhatwgUrl(driverUrl: string, form: Pick<StoreUrlForm, 'store' | 'what' | 'example'>): URL {
  try {
    return new URL(driverUrl);
  } catch {
    throw badStoreUrl(
      form.store,
      `${form.what} does not parse (the URL is not repeated here: it may hold a password)`,
      `write it as ${form.example}, with special characters in the password percent-encoded`,
    );
  }
}

const URL_SHAPE = /^([a-z][a-z0-9+.-]*:)(\/\/)?([^?]*)(?:\?(.*))?$/is;

/** Takes `url` apart as `form` says and checks every option; a mistake is STORE_BAD_URL. */
export function parseStoreUrl(url: string, form: StoreUrlForm): StoreUrl {
  if (form.authority) refuseQueryInUserInfo(url, form);
  const match = URL_SHAPE.exec(url);
  const [, scheme = '', slashes, body = '', query] = match ?? [];
  if (!match || (form.authority && !slashes)) {
    throw badStoreUrl(form.store, `${form.what} does not parse`, `write it as ${form.example}`);
  }
  const { authority, path } = form.authority ? splitAuthority(body) : { authority: '', path: body };
  const at = authority.lastIndexOf('@');
  const userInfo = at < 0 ? undefined : authority.slice(0, at);
  const colon = userInfo?.indexOf(':') ?? -1;
  const rawUser = userInfo === undefined ? undefined : colon < 0 ? userInfo : userInfo.slice(0, colon);
  const rawPassword = userInfo === undefined || colon < 0 ? undefined : userInfo.slice(colon + 1);
  const password = rawPassword === undefined ? undefined : decodedPart(rawPassword, 'password', form);
  const options = readOptions(query ?? '', form);
  const secretValues = options.given.filter((o) => form.options[o.name]?.secret && o.value !== '').map((o) => o.value);
  return {
    scheme: scheme.toLowerCase(),
    user: rawUser === undefined ? undefined : decodedPart(rawUser, 'user name', form),
    password,
    rawPassword,
    hosts: at < 0 ? authority : authority.slice(at + 1),
    path,
    own: options.own,
    driverUrl: `${scheme}${slashes ?? ''}${body}${options.passed.length > 0 ? `?${options.passed.join('&')}` : ''}`,
    secrets: [...new Set([...(password ? [password, rawPassword as string] : []), ...secretValues])],
  };
}

/**
 * The user information ends at the last '@' before the path: a '?' or '#' ahead of that '@' is
 * in the password, where every URL parser would end the authority and read the rest of the
 * password as options. Refused naming nothing of it: any part may be the password.
 */
function refuseQueryInUserInfo(url: string, form: StoreUrlForm): void {
  const start = url.indexOf('//');
  if (start < 0) return;
  const rest = url.slice(start + 2);
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  const at = authority.lastIndexOf('@');
  if (at >= 0 && /[?#]/.test(authority.slice(0, at))) {
    throw badStoreUrl(
      form.store,
      `${form.what} has a '?' or '#' before the '@' that ends its user name and password (nothing of them is repeated here)`,
      'percent-encode ? as %3F, # as %23 and / as %2F in the password (and @ as %40 in an option value)',
    );
  }
}

function splitAuthority(body: string): { authority: string; path: string } {
  const slash = body.indexOf('/');
  return slash < 0 ? { authority: body, path: '' } : { authority: body.slice(0, slash), path: body.slice(slash + 1) };
}

/** A %-escaped part of the URL, decoded; a malformed escape is a mistake in the URL, not a URIError to crash on. */
export function decodedPart(part: string, what: string, form: Pick<StoreUrlForm, 'store' | 'what'>): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw badStoreUrl(
      form.store,
      `the ${what} in ${form.what} has a malformed %-escape`,
      'percent-encode reserved characters, e.g. %40 for @ and %25 for %',
    );
  }
}

interface GivenOption {
  /** The declared name it matched. */
  readonly name: string;
  readonly value: string;
  /** `name=value` as typed. */
  readonly raw: string;
}

/** The options of `query`, each one checked; lifespan's own apart from those passed on. */
function readOptions(
  query: string,
  form: StoreUrlForm,
): { given: GivenOption[]; own: Map<string, string>; passed: string[] } {
  const given: GivenOption[] = [];
  for (const raw of query.split('&').filter((part) => part !== '')) {
    const [typed = '', value = ''] = [...new URLSearchParams(raw)][0] ?? [];
    const name = declaredName(typed, form);
    if (name === undefined) {
      if (!form.passUnknownOptions) throw unknownOption(typed, form);
      given.push({ name: typed, value, raw });
      continue;
    }
    const option = form.options[name] as UrlOption;
    if (option.refused) {
      throw badStoreUrl(
        form.store,
        `${form.what} has the option ${name}, which lifespan refuses: ${option.refused}`,
        `leave ${name} out`,
      );
    }
    if (!option.repeatable && given.some((g) => g.name === name)) {
      throw badStoreUrl(form.store, `${form.what} gives the option ${name} twice`, `keep one ${name}=…`);
    }
    if (option.values && !option.values.includes(value)) throw badValue(name, value, option, form);
    if (option.owner === 'lifespan' && value === '') {
      throw badStoreUrl(
        form.store,
        `${form.what} leaves ${name} empty`,
        `give ${name} a value, or leave the option out`,
      );
    }
    const problem = option.check?.(value);
    if (problem !== undefined) {
      throw badStoreUrl(
        form.store,
        `${form.what} sets ${name} to ${option.secret ? 'a value' : shown(value, 'a value')} that ${problem}`,
        `fix ${name}, or leave the option out`,
      );
    }
    given.push({ name, value, raw });
  }
  const isOwn = (g: GivenOption) => form.options[g.name]?.owner === 'lifespan';
  return {
    given,
    own: new Map(given.filter(isOwn).map((g) => [g.name, g.value])),
    passed: given.filter((g) => !isOwn(g)).map((g) => g.raw),
  };
}

function declaredName(typed: string, form: StoreUrlForm): string | undefined {
  if (Object.hasOwn(form.options, typed)) return typed;
  if (!form.caseInsensitiveOptions) return undefined;
  return Object.keys(form.options).find((name) => name.toLowerCase() === typed.toLowerCase());
}

function unknownOption(typed: string, form: StoreUrlForm): LifespanError {
  const guess = closestName(typed, Object.keys(form.options));
  return badStoreUrl(
    form.store,
    `${form.what} has an unknown option ${shown(typed, 'with that name')}${guess ? ` (did you mean ${guess}?)` : ''}`,
    knownOptions(form),
  );
}

function badValue(name: string, value: string, option: UrlOption, form: StoreUrlForm): LifespanError {
  const values = option.values ?? [];
  const guess = closestName(value, values);
  const given =
    value === '' ? `leaves ${name} empty` : `sets ${name} to ${option.secret ? 'a value' : shown(value, 'a value')}`;
  return badStoreUrl(
    form.store,
    `${form.what} ${given}, which is not one of ${values.join(', ')}${guess ? ` (did you mean ${name}=${guess}?)` : ''}`,
    `write ${name}=${values[0] ?? ''}, or leave the option out`,
  );
}

/** What the user typed, quoted, when it is a plain word (anything else may be pasted text: not repeated). */
function shown(typed: string, otherwise: string): string {
  return /^[\w.:-]{1,40}$/.test(typed) ? `'${typed}'` : otherwise;
}

/** The hint of an unknown option: every option this URL takes. */
export function knownOptions(form: StoreUrlForm): string {
  const entries = Object.entries(form.options);
  const own = entries
    .filter(([, o]) => o.owner === 'lifespan')
    .map(([name, o]) => (o.values ? `${name}=${o.values.join('|')}` : name));
  const driver = entries.filter(([, o]) => o.owner === 'driver').map(([name]) => name);
  const ownPart = `${form.what} takes ${own.join(', ')}`;
  return driver.length > 0 ? `${ownPart}, and the driver's ${driver.join(', ')}` : ownPart;
}
