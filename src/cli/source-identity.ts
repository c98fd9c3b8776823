import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_PRICE_DECIMALS } from '../defaults.js';
import type { RunSpec } from '../runs/run-store.js';
import type { OpenedSource } from '../sources/index.js';
import { isStoreSource, parseStoreSource } from '../sources/stores/store-url.js';
import type { RunFlags } from './run-flags.js';

/** A URL without credentials or query (a feed token must not reach Redis or the report). */
export function displaySource(source: string): string {
  if (isStoreSource(source)) {
    try {
      return parseStoreSource(source, true).display;
    } catch {
      return source.replace(/\/\/[^/@]*@/, '//').replace(/[?#].*$/, '');
    }
  }
  if (!/^https?:\/\//i.test(source)) return source === '-' ? '(standard input)' : source;
  try {
    const url = new URL(source);
    return `${url.origin}${url.pathname}`;
  } catch {
    return source;
  }
}

/**
 * The same source with the same options is the same import: a file by path, size and mtime, a URL
 * by address and content (its first 64 KiB and declared length: fingerprint.ts says the limit), so
 * that a changed file or feed is a new import, queued behind the one still queued; stdin never
 * matches. A store by address: its rows are read page by page as they are queued, none before.
 * A file or URL also by its address alone (sourceAddressId): its run that stopped unread is ended
 * by the next run of that address, whatever the content now.
 */
export async function sourceIdentity(
  source: string,
  flags: RunFlags,
  matchBy: string,
  opened: OpenedSource,
): Promise<Pick<RunSpec, 'sourceId' | 'sourceAddressId'>> {
  if (source === '-') return { sourceId: null };
  const options = [
    flags.preset,
    flags.mapping,
    flags.fields?.join(','),
    flags.createOnlyFields?.join(','),
    // The field used, however it was chosen (--match-by, the mapping file, the default).
    matchBy,
    flags.dryRun,
    flags.onlyPublished ? 'only-published' : '',
    flags.includeExternal ? 'include-external' : '',
    flags.priceIncludesTax ? 'gross' : '',
    flags.taxRate ?? '',
    flags.maxInvalid ?? '',
    flags.maxUpdates ?? '',
    flags.maxPriceChange ?? '',
    flags.only ?? '',
    flags.missing ? JSON.stringify(flags.missing) : '',
    flags.maxMissing ?? '',
    // Only when it changes what is sent: an import of the default keeps the identity it had.
    ...(flags.priceDecimals !== undefined && flags.priceDecimals !== DEFAULT_PRICE_DECIMALS
      ? [`price-decimals ${flags.priceDecimals}`]
      : []),
    // A plain run reads the seller's products; taken for a queued --incremental run of the same
    // file (which may rely on the tool's record) it would skip the read it was run for.
    ...(flags.incremental ? [`incremental ${flags.fullReadAfter}`] : []),
  ].join('|');
  const digest = (identity: string) =>
    createHash('sha256').update(`${identity}|${options}`).digest('hex').slice(0, 16);
  if (isStoreSource(source)) {
    // The store, and which of the operator's credentials read it (a NAME, never a secret).
    return { sourceId: digest(`store:${displaySource(source)}:${flags.sourceCredentials ?? ''}`) };
  }
  if (/^https?:\/\//i.test(source)) {
    // The address alone took tonight's feed for last night's while that run was still queued (on
    // the daily limit): tonight's values were never sent.
    return {
      sourceId: digest(`url:${source}:${opened.fingerprint ?? ''}`),
      sourceAddressId: digest(`url:${source}`),
    };
  }
  const path = resolve(source);
  const info = await stat(path);
  return {
    sourceId: digest(`file:${path}:${info.size}:${info.mtimeMs}`),
    sourceAddressId: digest(`file:${path}`),
  };
}
