import { maskUrlCredentials } from '../secrets';

export { displayUrl, maskUrlCredentials } from '../secrets';

/**
 * Connection secrets never reach output: every line the CLI prints passes through a masker that
 * knows the passwords, keys and tokens of the connections it opened.
 */
export class SecretMasker {
  private readonly secrets = new Set<string>();

  add(secret: string | undefined | null): void {
    // Very short values would mask ordinary words; such secrets are not worth protecting this way.
    if (secret && secret.length >= 3) {
      this.secrets.add(secret);
      this.secrets.add(encodeURIComponent(secret));
    }
  }

  /**
   * Registers the password of a connection URL. The values of its secret options come from its
   * store's opener, which declares them: judged by name here, `insecureAuth=true` would mask
   * every "true" of the output.
   */
  addUrl(url: string): void {
    try {
      const parsed = new URL(url);
      this.add(parsed.password);
      this.add(decodeURIComponent(parsed.password));
    } catch {
      // Not a URL: nothing to learn from it.
    }
  }

  mask(text: string): string {
    let masked = maskUrlCredentials(text);
    // Longest first, so a secret that contains another is masked whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) {
      masked = masked.split(secret).join('****');
    }
    return masked;
  }
}
