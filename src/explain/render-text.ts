import type { ExplainEntry } from './entry';

/** One paragraph per entry, grouped by store, each followed by its warnings. */
export function renderText(entries: readonly ExplainEntry[]): string {
  const blocks: string[] = [];
  for (const [store, group] of groupByStore(entries)) {
    const lines = [`== ${store} ==`];
    for (const entry of group) {
      lines.push(entry.text);
      lines.push(`  key: ${entry.key}`);
      for (const warning of entry.warnings) lines.push(`  ! ${warning}`);
    }
    blocks.push(lines.join('\n'));
  }
  return blocks.join('\n\n') + '\n';
}

export function groupByStore(entries: readonly ExplainEntry[]): Map<string, ExplainEntry[]> {
  const groups = new Map<string, ExplainEntry[]>();
  for (const entry of entries) {
    const group = groups.get(entry.store) ?? [];
    group.push(entry);
    groups.set(entry.store, group);
  }
  return groups;
}
