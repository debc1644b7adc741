import { ErrorCodes } from '../error-codes';
import { LifespanError } from '../errors';
import { SECRET_KEY } from '../secrets';
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
  /** It may be given more than once (MongoDB's readPreferenceTags). */
  readonly repeatable?: boolean;
}

export type UrlOptions = Readonly<Record<string, UrlOption>>;

/** What one store's URLs look like. */
export interface StoreUrlForm {
  /** The `store` of every error. */
  readonly store: string;
  /** How messages name the URL: 'the Redis URL', 'the postgres: URL'. */
  readonly what: string;
  /** The form to write, for hints: 'redis://[user:password@]host:6379[/db][?prefix=app:]'. */
  readonly example: string;
  /** false: everything between the scheme and the options is the path (`sqlite:./dev.db`, `cosmos:app`). */
  readonly authority: boolean;
  readonly options: UrlOptions;
  /** The driver reads option names in any case (MongoDB). */
  readonly caseInsensitiveOptions?: boolean;
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
  /** The decoded password and the values of secret-named options, for the masker. */
  readonly secrets: readonly string[];
}

/** The options a driver reads from its URL, passed on as typed. */
export function driverOptions(names: readonly string[], repeatable: readonly string[] = []): UrlOptions {
  return Object.fromEntries(
    names.map((name) => [
      name,
      repeatable.includes(name) ? { owner: 'driver', repeatable: true } : { owner: 'driver' },
    ]),
  );
}

/** A mistake in a store URL: a usage error of that store. */
export function badStoreUrl(store: string, message: string, hint: string): LifespanError {
  return new LifespanError(ErrorCodes.STORE_BAD_URL, message, { store, hint });
}

const URL_SHAPE = /^([a-z][a-z0-9+.-]*:)(\/\/)?([^?]*)(?:\?(.*))?$/is;

/** Takes `url` apart as `form` says and checks every option; a mistake is STORE_BAD_URL. */
export function parseStoreUrl(url: string, form: StoreUrlForm): StoreUrl {
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
  const secretValues = options.given.filter((o) => SECRET_KEY.test(o.name) && o.value !== '').map((o) => o.value);
  return {
    scheme: scheme.toLowerCase(),
    user: rawUser === undefined ? undefined : decodedPart(rawUser, 'user name', form),
    password,
    rawPassword,
    hosts: at < 0 ? authority : authority.slice(at + 1),
    path,
    own: options.own,
    driverUrl: `${scheme}${slashes ?? ''}${body}${options.passed.length > 0 ? `?${options.passed.join('&')}` : ''}`,
    secrets: [...new Set([...(password ? [password] : []), ...secretValues])],
  };
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
    if (name === undefined) throw unknownOption(typed, form);
    const option = form.options[name] as UrlOption;
    if (!option.repeatable && given.some((g) => g.name === name)) {
      throw badStoreUrl(form.store, `${form.what} gives the option ${name} twice`, `keep one ${name}=…`);
    }
    if (option.values && !option.values.includes(value)) throw badValue(name, value, option.values, form);
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

function badValue(name: string, value: string, values: readonly string[], form: StoreUrlForm): LifespanError {
  const guess = closestName(value, values);
  const given =
    value === ''
      ? `leaves ${name} empty`
      : `sets ${name} to ${SECRET_KEY.test(name) ? 'a value' : shown(value, 'a value')}`;
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
function knownOptions(form: StoreUrlForm): string {
  const entries = Object.entries(form.options);
  const own = entries
    .filter(([, o]) => o.owner === 'lifespan')
    .map(([name, o]) => (o.values ? `${name}=${o.values.join('|')}` : name));
  const driver = entries.filter(([, o]) => o.owner === 'driver').map(([name]) => name);
  const ownPart = `${form.what} takes ${own.join(', ')}`;
  return driver.length > 0 ? `${ownPart}, and the driver's ${driver.join(', ')}` : ownPart;
}
