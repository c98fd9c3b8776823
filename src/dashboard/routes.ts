import { DEFAULT_RUNS_LIMIT, MAX_RUNS_LIMIT } from '../defaults.js';

/** What a request asks of the dashboard; decided from the method and URL alone. */
export type Route =
  | { kind: 'page' }
  | { kind: 'sellers' }
  | { kind: 'runs'; limit: number }
  | { kind: 'run'; id: string }
  | { kind: 'report'; id: string }
  | { kind: 'error'; status: 400 | 404 | 405; message: string };

// Run ids look like 20261122T125413-ee9c7b; anything else cannot be a run, so it is a 404 at once.
const RUN_ID = '[0-9A-Za-z-]{1,64}';
const RUN_PATH = new RegExp(`^/api/runs/(${RUN_ID})$`);
const REPORT_PATH = new RegExp(`^/runs/(${RUN_ID})/report\\.csv$`);

export function routeRequest(method: string, url: URL): Route {
  const route = routeByPath(url);
  if (route.kind === 'error') return route;
  // Read-only: nothing here changes a run or a queue.
  if (method !== 'GET') return { kind: 'error', status: 405, message: `${method} is not allowed; use GET` };
  return route;
}

function routeByPath(url: URL): Route {
  const path = url.pathname;
  if (path === '/') return { kind: 'page' };
  if (path === '/api/sellers') return { kind: 'sellers' };
  if (path === '/api/runs') return runsRoute(url.searchParams.get('limit'));
  const run = RUN_PATH.exec(path)?.[1];
  if (run) return { kind: 'run', id: run };
  const report = REPORT_PATH.exec(path)?.[1];
  if (report) return { kind: 'report', id: report };
  return { kind: 'error', status: 404, message: `nothing at ${path}` };
}

function runsRoute(limit: string | null): Route {
  if (limit === null) return { kind: 'runs', limit: DEFAULT_RUNS_LIMIT };
  const value = /^\d+$/.test(limit) ? Number(limit) : Number.NaN;
  if (!(value >= 1 && value <= MAX_RUNS_LIMIT))
    return {
      kind: 'error',
      status: 400,
      message: `limit: ${limit} is not an integer from 1 to ${MAX_RUNS_LIMIT}`,
    };
  return { kind: 'runs', limit: value };
}
