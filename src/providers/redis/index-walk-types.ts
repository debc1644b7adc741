import type { StoredRecord } from './codec';
import type { IndexPosition } from './index-position';

/** One record read from the index walk: its key, value and (mode 'both') absolute expiry in ms (-1: none). */
export interface IndexRead {
  readonly key: string;
  readonly text: string;
  readonly expiresAt?: string;
  /** The value parsed already (ScanQuery.parse). */
  readonly stored?: StoredRecord;
}

/** One ZSCAN step of a script: where it started (to cut a page inside it) and what it read. */
export interface IndexStep {
  readonly at: IndexPosition;
  readonly reads: IndexRead[];
}

/** One script's steps and where the walk goes on (undefined: the end); lost: the index was lost (one server). */
export type IndexScan =
  | { readonly lost: false; readonly steps: IndexStep[]; readonly next: IndexPosition | undefined }
  | { readonly lost: true };
