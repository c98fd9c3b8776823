import { createHash } from 'node:crypto';
import { DASHBOARD_REFRESH_MS } from '../defaults.js';

/**
 * The dashboard page: one HTML file with its CSS and a little vanilla JS, no framework and no
 * external asset, so it works offline. It holds no data: the script fetches the JSON API every 2 s
 * and puts every value in with `textContent`, never as markup.
 */

const STYLE = `
:root { color-scheme: light; --ink: #1d2430; --muted: #677185; --line: #e3e6ec; --bg: #f6f7f9;
  --ok: #1f7a43; --warn: #a15c00; --bad: #b3261e; --accent: #2f5fd0; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--bg); }
header { display: flex; align-items: baseline; gap: 16px; padding: 14px 24px; background: #fff;
  border-bottom: 1px solid var(--line); }
h1 { font-size: 17px; margin: 0; }
h2 { font-size: 14px; margin: 22px 0 8px; }
main { padding: 0 24px 24px; }
#updated { color: var(--muted); }
#problem { color: var(--bad); font-weight: 600; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid var(--line); }
th, td { padding: 6px 7px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
th { font-weight: 600; color: var(--muted); background: #fafbfc; font-size: 12px; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
td.source { max-width: 150px; overflow: hidden; text-overflow: ellipsis; }
.scroll { overflow-x: auto; }
#runs-table th, #runs-table td { padding: 6px 5px; font-size: 12px; }
#runs-table td.state { white-space: normal; min-width: 90px; max-width: 150px; }
td.outcome { white-space: normal; min-width: 150px; max-width: 210px; }
.outcome span { margin-right: 8px; white-space: nowrap; }
.outcome b { font-variant-numeric: tabular-nums; }
.outcome .bad { color: var(--bad); }
.outcome .warn { color: var(--warn); }
td.empty { color: var(--muted); text-align: center; padding: 14px; }
.zero { color: #b0b6c2; }
.state { font-weight: 600; }
.state-done, .state-active { color: var(--ok); }
.state-running, .state-queued { color: var(--accent); }
.state-paused, .state-ended-early, .state-held { color: var(--warn); }
.state-cancelled { color: var(--muted); }
.history { display: block; font-weight: 400; color: var(--muted); font-size: 11px; }
.state-key-rejected, .state-unreachable, .state-failed { color: var(--bad); }
.badge { display: inline-block; margin-left: 6px; padding: 0 5px; border-radius: 3px; font-size: 11px;
  font-weight: 600; color: var(--warn); border: 1px solid currentColor; }
.progress { display: flex; align-items: center; gap: 6px; }
.bar { width: 64px; height: 8px; border-radius: 4px; background: var(--line); overflow: hidden; }
.fill { height: 100%; background: var(--accent); }
.fill.complete { background: var(--ok); }
a { color: var(--accent); }
`;

const SCRIPT = `
'use strict';
const REFRESH_MS = ${DASHBOARD_REFRESH_MS};
const byId = (id) => document.getElementById(id);

function utc(ms) {
  return ms === null ? '' : new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

// The finish time without its date when the run finished the day it started: the row stays narrow.
function finished(run) {
  if (run.finishedAt === null) return '';
  const at = utc(run.finishedAt);
  return at.slice(0, 10) === utc(run.startedAt).slice(0, 10) ? at.slice(11) : at;
}

function cell(row, text, className) {
  const td = row.insertCell();
  td.textContent = String(text);
  if (className) td.className = className;
  return td;
}

function count(row, value) {
  return cell(row, value, value === 0 ? 'num zero' : 'num');
}

// The counts that are not zero, worded as in the summary; a dry run's writes are only planned.
function outcomeCell(tr, run) {
  const c = run.counts;
  const parts = [
    [run.dryRun ? c.toCreate : c.created, run.dryRun ? 'to create' : 'created', ''],
    [run.dryRun ? c.toUpdate : c.updated, run.dryRun ? 'to update' : 'updated', ''],
    [c.unchanged, 'unchanged', ''],
    [c.invalid, 'invalid', 'bad'],
    [c.failed, 'failed', 'bad'],
    [c.held, 'held', 'warn'],
    [c.skipped, 'skipped', ''],
    [c.missing, 'missing', 'warn'],
  ];
  const td = tr.insertCell();
  td.className = 'outcome';
  for (const [value, word, tone] of parts) {
    if (value === 0) continue;
    const span = document.createElement('span');
    if (tone) span.className = tone;
    const number = document.createElement('b');
    number.textContent = String(value);
    span.append(number, ' ' + word);
    td.append(span);
  }
  if (!td.firstChild) {
    td.textContent = 'nothing yet';
    td.classList.add('zero');
  }
}

function stateCell(row, state, text) {
  const td = cell(row, text, 'state state-' + state);
  td.title = text;
  return td;
}

function fill(tbody, items, columns, emptyText, addRow) {
  const rows = [];
  for (const item of items) {
    const tr = document.createElement('tr');
    addRow(tr, item);
    rows.push(tr);
  }
  if (rows.length === 0) {
    const tr = document.createElement('tr');
    const td = cell(tr, emptyText, 'empty');
    td.colSpan = columns;
    rows.push(tr);
  }
  tbody.replaceChildren(...rows);
}

function sellerRow(tr, seller) {
  cell(tr, seller.name ? seller.name + ' (' + seller.ref + ')' : seller.ref, seller.name ? '' : 'mono');
  cell(tr, seller.baseUrl, 'mono');
  stateCell(tr, seller.state, seller.stateText);
  count(tr, seller.requestsToday);
  count(tr, seller.queue.waiting);
  count(tr, seller.queue.active);
  count(tr, seller.queue.delayed);
  count(tr, seller.queue.failed);
}

function progressCell(tr, run) {
  const td = tr.insertCell();
  const wrap = document.createElement('div');
  wrap.className = 'progress';
  const bar = document.createElement('div');
  bar.className = 'bar';
  const inner = document.createElement('div');
  const share = run.total > 0 ? Math.min(1, run.settled / run.total) : run.state === 'done' ? 1 : 0;
  inner.className = share >= 1 && run.produced ? 'fill complete' : 'fill';
  inner.style.width = (share * 100).toFixed(1) + '%';
  bar.append(inner);
  const label = document.createElement('span');
  label.textContent = run.settled + ' / ' + run.total + (run.produced ? '' : '+');
  wrap.append(bar, label);
  td.append(wrap);
}

function runRow(tr, run) {
  cell(tr, run.id, 'mono');
  // The file name is what tells runs apart; the whole path or URL is in the tooltip.
  const source = cell(tr, run.source.split('/').filter(Boolean).pop() || run.source, 'source');
  source.title = run.source + ' (preset ' + run.preset + ')';
  // A named seller by its name; an unnamed one by the start of its ref. The ref is in the tooltip.
  cell(tr, run.sellerName || run.sellerRef.slice(0, 8), run.sellerName ? '' : 'mono').title = run.sellerRef;
  const shown = run.aborted ? 'ended-early' : run.stateText.startsWith('paused') ? 'paused' : run.state;
  const state = stateCell(tr, shown, run.stateText);
  if (run.dryRun) {
    const badge = document.createElement('span');
    badge.className = 'badge';
    badge.textContent = 'dry run';
    state.append(badge);
  }
  // Approved, reverted, cancelled: one line each under the state, so a night's story reads at a glance.
  for (const text of run.history) {
    const line = document.createElement('span');
    line.className = 'history';
    line.textContent = text;
    state.append(line);
  }
  progressCell(tr, run);
  outcomeCell(tr, run);
  // A lower bound after a process serving the run stopped mid-chunk (its last requests may be missing).
  if (run.requestsAtLeast) cell(tr, '≥ ' + run.requests, 'num').title = 'at least: a process serving the run stopped mid-chunk (died, or stopped past its lock)';
  else count(tr, run.requests);
  // The year goes: it is in the run id, and the row must fit a laptop's width.
  cell(tr, utc(run.startedAt).slice(5), 'mono').title = utc(run.startedAt) + ' UTC';
  cell(tr, finished(run), 'mono');
  cell(tr, run.durationText, 'num').title = run.finishedAt === null ? 'so far' : '';
  const link = document.createElement('a');
  link.href = run.reportUrl;
  link.textContent = 'CSV';
  tr.insertCell().append(link);
}

async function getJson(path) {
  const reply = await fetch(path, { cache: 'no-store' });
  const body = await reply.json();
  if (!reply.ok) throw new Error(body.error || reply.statusText);
  return body;
}

async function refresh() {
  try {
    const [sellers, runs] = await Promise.all([getJson('/api/sellers'), getJson('/api/runs?limit=50')]);
    fill(byId('sellers'), sellers.sellers, 8, 'No seller yet: catalog-sync import or run registers one.', sellerRow);
    fill(byId('runs'), runs.runs, 11, 'No run yet.', runRow);
    byId('updated').textContent = 'updated ' + utc(Date.now()) + ' UTC, every 2 s';
    byId('problem').textContent = '';
  } catch (error) {
    byId('problem').textContent = 'not refreshed: ' + error.message;
  } finally {
    setTimeout(refresh, REFRESH_MS);
  }
}

refresh();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * Only the page's own inline script and style may run (by hash), and it may talk to this server
 * only: should a value ever slip into the markup, it could not execute.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>catalog-sync dashboard</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<header><h1>catalog-sync</h1><span id="updated">loading…</span><span id="problem"></span></header>
<main>
<h2>Sellers</h2>
<div class="scroll"><table>
<thead><tr><th>seller</th><th>base URL</th><th>state</th><th class="num">requests today</th>
<th class="num">waiting</th><th class="num">active</th><th class="num">delayed</th><th class="num">failed</th></tr></thead>
<tbody id="sellers"></tbody>
</table></div>
<h2>Runs <small>(latest 50, times in UTC)</small></h2>
<div class="scroll"><table id="runs-table">
<thead><tr><th>run</th><th>source</th><th>seller</th><th>state</th><th>progress</th>
<th>outcome</th><th class="num">requests</th>
<th>started</th><th>finished</th><th class="num">duration</th><th>report</th></tr></thead>
<tbody id="runs"></tbody>
</table></div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
