import type { EntityForecast } from '../core/forecast';
import type { ReportFormat } from './report';

/** The result of expiryForecast(): one forecast per entity and store, and its three renderings. */
export class ExpiryForecastReport {
  readonly entries: readonly EntityForecast[];

  constructor(entries: readonly EntityForecast[]) {
    this.entries = Object.freeze([...entries]);
  }

  toText(): string {
    return this.entries.map(textOf).join('\n\n');
  }

  toMarkdown(): string {
    return this.entries.map(markdownOf).join('\n\n');
  }

  toJSON(): { entries: readonly EntityForecast[] } {
    return { entries: this.entries };
  }

  render(format: ReportFormat): string {
    if (format === 'json') return JSON.stringify(this.toJSON(), null, 2);
    return format === 'markdown' ? this.toMarkdown() : this.toText();
  }
}

const BAR_WIDTH = 20;

const count = (n: number): string => n.toLocaleString('en-US');

/** 'exact: every stored record counted' / 'sampled: the first 1,000 records read (the cap)'. */
export function howCounted(f: EntityForecast): string {
  if (f.method === 'none') return 'nothing to count';
  if (f.exact) return `exact: ${count(f.read)} stored records counted`;
  return `sampled: the walk stopped at its cap after ${count(f.read)} records; counts are of those`;
}

function rows(f: EntityForecast): Array<{ label: string; n: number }> {
  return [
    { label: 'due, still stored', n: f.due },
    ...f.buckets.map((b) => ({ label: b.label, n: b.count })),
    { label: 'never', n: f.never },
  ];
}

function costOf(f: EntityForecast): string {
  const units = f.cost.requestUnits === undefined ? '' : `, ${f.cost.requestUnits.toFixed(2)} RU`;
  return `${f.cost.text} (${count(f.cost.roundTrips)} round trip${f.cost.roundTrips === 1 ? '' : 's'}${units})`;
}

function textOf(f: EntityForecast): string {
  const head = `${f.entity} (${f.store}, ${f.collection})`;
  if (f.method === 'none') return `${head}: ${f.note ?? 'no expiry on this store'}`;
  const counts = rows(f)
    .map((r) => `${r.label}: ${count(r.n)}`)
    .join('; ');
  const note = f.note ? `\n  ${f.note}` : '';
  return `${head}: ${counts}\n  ${howCounted(f)}; cost: ${costOf(f)}${note}`;
}

function markdownOf(f: EntityForecast): string {
  const head = `### ${f.entity} (${f.store}, \`${f.collection}\`)`;
  if (f.method === 'none') return `${head}\n\n${f.note ?? 'No expiry on this store.'}`;
  const all = rows(f);
  const most = Math.max(1, ...all.map((r) => r.n));
  const table = [
    '| expires | records | |',
    '| --- | ---: | --- |',
    ...all.map((r) => `| ${r.label} | ${count(r.n)} | ${bar(r.n, most)} |`),
  ].join('\n');
  const note = f.note ? `\n\n${f.note}` : '';
  return `${head}\n\n${table}\n\n_${howCounted(f)}; cost: ${costOf(f)}_${note}`;
}

/** A bar of up to BAR_WIDTH blocks, at least one for a bucket that holds anything. */
function bar(n: number, most: number): string {
  if (n === 0) return '';
  return '█'.repeat(Math.max(1, Math.round((n / most) * BAR_WIDTH)));
}
