import { formatBytes } from '../sources/limits.js';
import type { RemoteRecord } from './remote-record.js';

/**
 * How much one list read (every page of `GET /products` or `GET /orders`: a run's list read,
 * `products export`, `orders export`) may bring. The API's answers are not trusted: an endless
 * `next` chain, or pages of tens of MiB, would otherwise fill the memory, Redis or the scratch disk.
 */
export interface AnswerCaps {
  /** One answer, in bytes after decompression (any request, not only list pages). */
  pageBytes: number;
  /** Every page of one list read together, in bytes. */
  totalBytes: number;
  pages: number;
  records: number;
  /** Distinct field names over the records of one list read (a CSV export's columns). */
  columns: number;
}

/** What one list read has brought so far; `take` and `nextPage` say which cap it passes, or null. */
export class ListBudget {
  private bytes = 0;
  private pages = 0;
  private records = 0;
  private readonly columns = new Set<string>();

  constructor(private readonly caps: AnswerCaps) {}

  take(answerBytes: number, records: readonly RemoteRecord[]): string | null {
    const { caps } = this;
    this.pages++;
    this.bytes += answerBytes;
    this.records += records.length;
    if (this.bytes > caps.totalBytes) return passed(`${formatBytes(caps.totalBytes)} of answers`);
    if (this.records > caps.records) return passed(`${caps.records.toLocaleString('en-US')} records`);
    for (const record of records) {
      for (const name of Object.keys(record.fields)) {
        this.columns.add(name);
        if (this.columns.size > caps.columns) {
          return passed(`${caps.columns.toLocaleString('en-US')} distinct fields`);
        }
      }
    }
    return null;
  }

  /** Before a next page is asked for: null while the page cap leaves room for it. */
  nextPage(): string | null {
    return this.pages >= this.caps.pages ? passed(`${this.caps.pages.toLocaleString('en-US')} pages`) : null;
  }
}

function passed(what: string): string {
  return `the list passed ${what}, more than any real seller has; stopped reading`;
}
