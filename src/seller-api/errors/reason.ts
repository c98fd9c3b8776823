import { oneLine } from './one-line.js';

/**
 * The API's reason for an error, as one line. The spec leaves the error body open (section 7),
 * so this reads JSON (`message`, `error`, `error.message`, `detail`, `errors[]`, `errors{field: […]}`…),
 * HTML (its text), plain text, or nothing.
 */
export function reasonFromBody(body: string): string {
  const text = body.trim();
  if (text === '') return '';
  const json = tryParseJson(text);
  if (json !== undefined) return oneLine(reasonFromJson(json));
  if (/^<(!doctype|html|\?xml|[a-z]+[\s>])/i.test(text)) return oneLine(htmlText(text));
  return oneLine(text);
}

function tryParseJson(text: string): unknown {
  if (!/^[[{"]/.test(text)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const MESSAGE_KEYS = ['message', 'error', 'error_description', 'detail', 'title', 'msg', 'description'];
const DETAIL_KEYS = ['errors', 'details', 'violations'];

function reasonFromJson(json: unknown): string {
  if (typeof json === 'string') return json;
  if (Array.isArray(json)) return listText(json);
  if (!isObject(json)) return '';
  const primary = firstText(json, MESSAGE_KEYS);
  const details = DETAIL_KEYS.map((key) => detailsText(json[key])).find((text) => text !== '') ?? '';
  if (primary && details && !primary.includes(details)) return `${primary} (${details})`;
  return primary || details;
}

function firstText(object: Record<string, unknown>, keys: string[]): string {
  for (const key of keys) {
    const value = object[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (isObject(value)) {
      const nested = firstText(value, MESSAGE_KEYS);
      if (nested) return nested;
    }
  }
  return '';
}

function detailsText(value: unknown): string {
  if (Array.isArray(value)) return listText(value);
  if (isObject(value)) {
    return Object.entries(value)
      .map(
        ([field, messages]) => `${field}: ${Array.isArray(messages) ? listText(messages) : String(messages)}`,
      )
      .join('; ');
  }
  return typeof value === 'string' ? value : '';
}

function listText(values: unknown[]): string {
  return values
    .map((value) => {
      if (typeof value === 'string') return value;
      if (!isObject(value)) return String(value);
      const text = firstText(value, MESSAGE_KEYS);
      const field = value.field ?? value.path ?? value.param;
      return typeof field === 'string' && text ? `${field}: ${text}` : text;
    })
    .filter((text) => text !== '')
    .join('; ');
}

function htmlText(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  if (title?.trim()) return title;
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;/g, ' ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
