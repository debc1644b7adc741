import { LifespanError } from '../errors';
import type { ReportFormat } from '../explain/report';
import { STORE_NAMES, type StoreName } from '../providers/registry';

export function parseStores(list: string | undefined): StoreName[] {
  if (list === undefined) return [...STORE_NAMES];
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !(STORE_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0 || names.length === 0) {
    throw usage(`unknown store ${unknown.map((u) => `'${u}'`).join(', ') || "''"}`, `use ${STORE_NAMES.join(',')}`);
  }
  return names as StoreName[];
}

export function parseFormat(value: string | undefined): ReportFormat {
  const format = value ?? 'text';
  if (format === 'text' || format === 'markdown' || format === 'json') return format;
  throw usage(`unknown format '${format}'`, 'use text, markdown or json');
}

export function usage(message: string, hint: string): LifespanError {
  return new LifespanError('CLI_USAGE', message, { hint });
}
