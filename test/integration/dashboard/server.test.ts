import { afterEach, describe, expect, it } from 'vitest';
import type { DashboardSource } from '../../../src/dashboard/data.js';
import { type DashboardServer, startDashboard } from '../../../src/dashboard/server.js';

/** A source whose every read waits forever, as a read does while Redis is away (it waits to reconnect). */
const stuck: DashboardSource = {
  sellers: () => new Promise(() => {}),
  runs: () => new Promise(() => {}),
  run: () => new Promise(() => {}),
  hasRun: () => new Promise(() => {}),
  writeReport: () => new Promise(() => {}),
};

const failing: DashboardSource = {
  ...stuck,
  runs: () => Promise.reject(new Error('READONLY You cannot write against a read only replica.')),
};

describe('the dashboard server, when Redis does not answer', () => {
  let server: DashboardServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('answers 503 once the read has taken too long, rather than leaving the page hanging', async () => {
    server = await startDashboard({ source: stuck, port: 0, answerWithinMs: 50 });

    const reply = await fetch(`${server.url}api/sellers`);

    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ error: 'Redis is not answering' });
  });

  it('answers 503 without the error text when a read fails', async () => {
    server = await startDashboard({ source: failing, port: 0 });

    const reply = await fetch(`${server.url}api/runs`);

    expect(reply.status).toBe(503);
    expect(await reply.json()).toEqual({ error: 'the dashboard could not read Redis' });
  });

  it('still serves the page, which says the data is not refreshed', async () => {
    server = await startDashboard({ source: stuck, port: 0, answerWithinMs: 50 });

    const page = await fetch(server.url);

    expect(page.status).toBe(200);
    expect(await page.text()).toContain("'not refreshed: ' + error.message");
  });
});
