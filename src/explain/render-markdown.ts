import { formatDuration } from '../model/duration';
import type { ExplainEntry } from './entry';

/** `15m (900 s)`: readable first, exact in brackets. */
export function durationReadable(seconds: number | null): string {
  if (seconds === null) return '—';
  return seconds === -1 ? 'on, no default (-1)' : `${formatDuration(seconds)} (${seconds} s)`;
}

/**
 * A summary table, then per store each entry's paragraph, commands and per-write support.
 * `stores[i]` names the configured store of `entries[i]` (config key and masked target) when
 * two stores of one kind must be told apart; by default the store kind.
 */
export function renderMarkdown(entries: readonly ExplainEntry[], stores?: readonly string[]): string {
  const storeOf = (i: number) => stores?.[i] ?? entries[i]!.store;
  const out: string[] = [
    '| entity | store | collection | mechanism | TTL | counts from | on TTL change |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  entries.forEach((e, i) => {
    out.push(
      `| ${cell(e.entity)} | ${cell(storeOf(i))} | ${cell(e.collection)} | ${e.mechanism} | ${durationReadable(e.seconds)} | ${e.countsFrom ?? '—'} | ${e.changeEffect.kind} |`,
    );
  });
  const groups = new Map<string, ExplainEntry[]>();
  entries.forEach((e, i) => groups.set(storeOf(i), [...(groups.get(storeOf(i)) ?? []), e]));
  for (const [store, group] of groups) {
    out.push('', `## ${cell(store)}`);
    for (const e of group) {
      out.push('', `### ${e.entity} → \`${e.collection}\``, '', e.text, '', `Key: ${e.key}`);
      if (e.materializedBy.commands.length > 0) {
        out.push('', '```', ...e.materializedBy.commands, '```');
      }
      out.push('', '| per-write value | support | how |', '| --- | --- | --- |');
      for (const row of e.perWrite) out.push(`| ${row.value} | ${row.support} | ${cell(row.how)} |`);
      if (e.conditionalWrites) {
        out.push('', '| conditional write | how | remaining life |', '| --- | --- | --- |');
        for (const row of e.conditionalWrites) {
          out.push(`| ${row.operation} | ${cell(row.how)} | ${cell(row.expiry)} |`);
        }
      }
      for (const w of e.warnings) out.push('', `> **Warning:** ${w}`);
    }
  }
  return out.join('\n') + '\n';
}

export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
