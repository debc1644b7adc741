import type { ExplainEntry } from './entry';
import { renderMarkdown } from './render-markdown';
import { renderText } from './render-text';

/** The result of explain(): entries plus the three renderings. */
export class ExplainReport {
  readonly entries: readonly ExplainEntry[];

  constructor(entries: readonly ExplainEntry[]) {
    this.entries = Object.freeze([...entries]);
  }

  toText(): string {
    return renderText(this.entries);
  }

  toMarkdown(): string {
    return renderMarkdown(this.entries);
  }

  toJSON(): { entries: readonly ExplainEntry[] } {
    return { entries: this.entries };
  }

  render(format: ReportFormat): string {
    if (format === 'json') return JSON.stringify(this.toJSON(), null, 2);
    return format === 'markdown' ? this.toMarkdown() : this.toText();
  }
}

export type ReportFormat = 'text' | 'markdown' | 'json';
