import type { Io } from './io';
import { SecretMasker } from './mask';

/**
 * The Io with every line passed through the masker (made here when the Io has none). An Io that
 * already carries a masker is already masking, so it is returned as it is, not wrapped twice.
 */
export function maskingIo(io: Io): Io & { readonly masker: SecretMasker } {
  if (io.masker) return io as Io & { readonly masker: SecretMasker };
  const masker = new SecretMasker();
  return { ...io, masker, out: (t) => io.out(masker.mask(t)), err: (t) => io.err(masker.mask(t)) };
}
