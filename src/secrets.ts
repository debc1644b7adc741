/** Secret-free forms of connection text, shared by the CLI and the URL openers. */

/** A URL for display: the password replaced by ****. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    for (const key of [...parsed.searchParams.keys()]) {
      if (/pass|secret|key|token|auth/i.test(key)) parsed.searchParams.set(key, '****');
    }
    return parsed.toString();
  } catch {
    return maskUrlCredentials(url);
  }
}

/**
 * The password part of every URL-shaped credential (`scheme://user:password@`) in free text,
 * registered or not: a config factory's own error message may quote a URL lifespan never saw.
 */
export function maskUrlCredentials(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*):[^\s@/]*@/gi, '$1:****@');
}
