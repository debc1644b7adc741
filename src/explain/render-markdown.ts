import type { ExplainEntry } from './entry';
import { groupByStore } from './render-text';

/** A summary table, then per store each entry's paragraph, commands and per-write support. */
export function renderMarkdown(entries: readonly ExplainEntry[]): string {
  const out: string[] = [
    '| entity | store | collection | mechanism | TTL | counts from | on TTL change |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const e of entries) {
    out.push(
      `| ${cell(e.entity)} | ${e.store} | ${cell(e.collection)} | ${e.mechanism} | ${e.seconds === null ? '—' : `${e.seconds}s`} | ${e.countsFrom ?? '—'} | ${e.changeEffect.kind} |`,
    );
  }
  for (const [store, group] of groupByStore(entries)) {
    out.push('', `## ${store}`);
    for (const e of group) {
      out.push('', `### ${e.entity} → \`${e.collection}\``, '', e.text, '', `Key: ${e.key}`);
      if (e.materializedBy.commands.length > 0) {
        out.push('', '```', ...e.materializedBy.commands, '```');
      }
      out.push('', '| per-write value | support | how |', '| --- | --- | --- |');
      for (const row of e.perWrite) out.push(`| ${row.value} | ${row.support} | ${cell(row.how)} |`);
      for (const w of e.warnings) out.push('', `> **Warning:** ${w}`);
    }
  }
  return out.join('\n') + '\n';
}

export function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
