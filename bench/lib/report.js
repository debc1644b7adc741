'use strict';
/** The run's table (terminal text and Markdown) and its JSON. */
const { formatMs, formatRange, formatRatio } = require('./stats');
const { verdict } = require('./measure');

function ratioText(row) {
  if (!row.ratio) return '—';
  return `${formatRatio(row.ratio.median)} (${formatRatio(row.ratio.min)}–${formatRatio(row.ratio.max)}) n=${row.ratio.n}`;
}

function sideText(side) {
  if (!side) return '—';
  if (side.text) return `${side.name}: ${side.text}`;
  return `${side.name}: ${formatRange(side.stats)}`;
}

function okText(row) {
  const v = verdict(row);
  if (v === null) return '';
  return v ? 'met' : 'MISSED';
}

/** Table cells of one row, in column order. */
function cells(row) {
  return [
    String(row.case),
    row.store,
    row.measure,
    sideText(row.subject),
    sideText(row.reference),
    ratioText(row),
    row.target ? row.target.text : '',
    okText(row),
    row.rssMb ? `${Math.round(row.rssMb)} MB` : '',
  ];
}

const HEADERS = [
  '#',
  'store',
  'measure',
  'lifespan / subject: median (min–max)',
  'reference: median (min–max)',
  'ratio (min–max)',
  'target',
  'verdict',
  'peak RSS',
];

function metaLines(meta) {
  return [
    `date: ${meta.date}`,
    `machine: ${meta.machine}`,
    `node: ${meta.node}; lifespan ${meta.lifespan}; ${meta.drivers}`,
    `servers: ${meta.servers.join('; ')}`,
    `runs: ${meta.warmup} warm-up, then at least ${meta.runs} timed rounds per comparison${
      meta.roundBudget > 0 ? ` (fast ones repeat, up to 25 rounds within ~${meta.roundBudget / 1000} s)` : ''
    }, each side once per round in alternating order; times: median (min–max); ratio: median of the per-round ratios (min–max), n rounds`,
    `code: ${meta.code}`,
    `sizes: ${meta.sizes}`,
  ];
}

function extrasOf(rows) {
  return rows.filter((r) => r.extra).map((r) => `  ${r.case} ${r.store} ${r.measure}: ${r.extra}`);
}

function textTable(result) {
  const body = result.rows.map(cells);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out = [...metaLines(result.meta), '', line(HEADERS), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
  const extras = extrasOf(result.rows);
  if (extras.length > 0) out.push('', 'details:', ...extras);
  if (result.skipped.length > 0) out.push('', 'skipped:', ...result.skipped.map((s) => `  ${s.job}: ${s.reason}`));
  if (result.notes.length > 0) out.push('', 'notes:', ...result.notes.map((n) => `  - ${n}`));
  out.push('', `total: ${formatMs(result.meta.seconds * 1000)} wall clock`);
  return out.join('\n');
}

function markdownTable(result) {
  const esc = (s) => s.replace(/\|/g, '\\|');
  const out = [...metaLines(result.meta).map((l) => `- ${l}`), ''];
  out.push(`| ${HEADERS.join(' | ')} |`, `| ${HEADERS.map(() => '---').join(' | ')} |`);
  for (const row of result.rows) out.push(`| ${cells(row).map(esc).join(' | ')} |`);
  const extras = extrasOf(result.rows);
  if (extras.length > 0) out.push('', 'Details:', '', ...extras.map((e) => `- ${e.trim()}`));
  if (result.skipped.length > 0) out.push('', 'Skipped:', '', ...result.skipped.map((s) => `- ${s.job}: ${s.reason}`));
  if (result.notes.length > 0) out.push('', 'Notes:', '', ...result.notes.map((n) => `- ${n}`));
  out.push('', `Total: ${formatMs(result.meta.seconds * 1000)} wall clock.`);
  return out.join('\n');
}

module.exports = { textTable, markdownTable };
