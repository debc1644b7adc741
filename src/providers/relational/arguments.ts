import { optionsArgument, writeOptions } from '../../runtime/arguments';
import type { EnsureOptions, WriteOptions } from '../contract';
import { RELATIONAL_STORE } from './options';

/** Options objects of the public calls, checked by the shared guard (src/runtime/arguments.ts). */
export function optionsObject<T extends object>(value: unknown, call: string, example: string): Partial<T> {
  return optionsArgument<Partial<T>>(value, call, { store: RELATIONAL_STORE }, example);
}

export function checkWriteOptions(value: unknown, call: string): WriteOptions {
  return writeOptions(value, call, RELATIONAL_STORE);
}

export function checkEnsureOptions(value: unknown): EnsureOptions {
  return optionsObject<EnsureOptions>(value, 'ensureCollections()', '{ allowRetroactive: true }');
}
