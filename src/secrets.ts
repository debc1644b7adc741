/** Secret-free forms of connection text, shared by the CLI and the URL openers. */

/** Names of URL query parameters and connection-string keys whose value is a credential. */
export const SECRET_KEY = /pass|pwd|secret|token|auth|signature|^sig$|key(?!space)/i;

/** A URL for display: the password replaced by ****. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    for (const key of [...parsed.searchParams.keys()]) {
      if (SECRET_KEY.test(key)) parsed.searchParams.set(key, '****');
    }
    return parsed.toString();
  } catch {
    return maskUrlCredentials(url);
  }
}

/**
 * Every credential in free text, registered or not (a config factory's own error message may
 * quote a URL lifespan never saw): the password of every URL-shaped credential
 * (`scheme://user:password@`, up to the last '@' of the authority, as URL parsers split it), and
 * the value of every secret-named `name=value` (URL query parameters, `Key=…;` connection strings).
 */
export function maskUrlCredentials(text: string): string {
  return text
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/?#]*):[^\s/?#]*@/gi, '$1:****@')
    .replace(/([\w.-]+)=([^\s&;#'"`]*[^\s&;#'"`:])/g, (all, name: string) =>
      SECRET_KEY.test(name) ? `${name}=****` : all,
    );
}
