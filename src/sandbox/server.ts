import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { closeServer, originOf } from '../net/http-server.js';
import { errorAnswer, type JsonAnswer } from './answers.js';
import { handleApiRequest } from './api.js';
import { readBody, writeAnswer } from './http.js';
import type { SandboxOptions } from './options.js';
import { type Sandbox, sandboxHandles } from './sandbox.js';
import { handleSeamRequest, SEAM_PREFIX } from './seam.js';
import { resolveOptions, SandboxState } from './state.js';

const API_PREFIX = '/api/v1';

/** Starts the sandbox Seller API on loopback; resolves once it listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { resolved, faults } = resolveOptions(options);
  const state = new SandboxState(resolved, faults);
  let sandbox: Sandbox | undefined;

  const server = createServer((req, res) => {
    serve(state, () => sandbox!, req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else writeAnswer(res, internalError(error));
    });
  });
  server.listen(resolved.port, resolved.host);
  await once(server, 'listening');

  state.baseUrl = `${originOf(server)}${API_PREFIX}`;

  const close = () => closeServer(server);
  sandbox = sandboxHandles(state, close);
  return sandbox;
}

async function serve(
  state: SandboxState,
  sandbox: () => Sandbox,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
  const method = req.method ?? 'GET';
  const body = await readBody(req);

  if (url.pathname === SEAM_PREFIX || url.pathname.startsWith(`${SEAM_PREFIX}/`)) {
    const path = url.pathname.slice(SEAM_PREFIX.length);
    const answer =
      body === null
        ? errorAnswer(400, 'body_too_large', 'the request body is too large')
        : handleSeamRequest(sandbox(), method, path, url.searchParams, body);
    writeAnswer(res, answer);
    return;
  }
  if (!url.pathname.startsWith(`${API_PREFIX}/`)) {
    writeAnswer(res, errorAnswer(404, 'not_found', `no such endpoint; the API lives under ${API_PREFIX}`));
    return;
  }

  const path = trimTrailingSlash(url.pathname.slice(API_PREFIX.length));
  const route = `${method} ${path}`;
  const observe = (status: number | 'dropped', seller: string | undefined) => {
    state.stats.record(route, status, seller);
    const query = Object.fromEntries(url.searchParams);
    const at = state.options.now();
    state.requests.record({ method, path, query, body, status, at, ...(seller ? { seller } : {}) });
  };
  state.stats.arrived();
  if (state.faults.latencyMs > 0) await sleep(state.faults.latencyMs);
  await state.options.hold?.({ method, path, body });
  if (body === null) {
    observe(400, undefined);
    writeAnswer(res, errorAnswer(400, 'body_too_large', 'the request body is too large'));
    return;
  }

  const { answer, seller } = handleApiRequest(state, {
    method,
    path,
    baseUrl: req.headers.host ? `http://${req.headers.host}${API_PREFIX}` : state.baseUrl,
    query: url.searchParams,
    authorization: req.headers.authorization,
    body,
  });
  if (answer.kind === 'drop') {
    observe('dropped', seller);
    req.socket.destroy();
    return;
  }
  observe(answer.status, seller);
  writeAnswer(res, answer);
}

function trimTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function internalError(error: unknown): JsonAnswer {
  return errorAnswer(500, 'internal_error', `sandbox bug: ${String(error)}`);
}
