import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PAGE_HTML } from '../../../src/dashboard/page.js';
import type { RunView } from '../../../src/dashboard/views.js';
import { runIdOf } from '../support/cli.js';
import { usePipeline } from '../support/pipeline.js';
import { useDashboards } from './support.js';

// A folder `<script>alert(1)<` holding `script>.csv`: a file name cannot hold the `/` of `</script>`.
const MARKUP_PATH = ['<script>alert(1)<', 'script>.csv'] as const;

describe('the dashboard page', () => {
  const pipeline = usePipeline();
  const openDashboard = useDashboards();

  it('is one HTML file with no external asset, refreshed from the JSON API', async () => {
    const dashboard = await openDashboard(pipeline.env);

    const reply = await fetch(dashboard.url);
    const html = await reply.text();

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html).not.toMatch(/\s(src|href)="(https?:)?\/\//);
    expect(html).toContain("fetch(path, { cache: 'no-store' })");
    expect(html).toContain("getJson('/api/sellers')");
  });

  describe('when a source path holds markup', () => {
    async function runFromMarkupPath(): Promise<string> {
      await mkdir(join(pipeline.dir, MARKUP_PATH[0]));
      const path = join(pipeline.dir, ...MARKUP_PATH);
      await writeFile(path, 'sku,name,price\nA-1,Lamp,12.50\n', 'utf8');
      const result = await pipeline.cli(['run', path]);
      expect(result.code).toBe(0);
      return runIdOf(result.stdout);
    }

    it('hands it to the page as JSON data, never inside the HTML', async () => {
      await runFromMarkupPath();
      const dashboard = await openDashboard(pipeline.env);

      const page = await (await fetch(dashboard.url)).text();
      const api = await fetch(`${dashboard.url}api/runs`);
      const { runs } = (await api.json()) as { runs: RunView[] };

      expect(page).not.toContain('alert(1)');
      expect(api.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(runs[0]?.source).toBe(join(pipeline.dir, ...MARKUP_PATH));
      expect(runs[0]?.source).toContain('<script>alert(1)</script>.csv');
    });

    it('forbids any script but its own, so a value that slipped into markup could not run', async () => {
      await runFromMarkupPath();
      const dashboard = await openDashboard(pipeline.env);

      const csp = (await fetch(dashboard.url)).headers.get('content-security-policy') ?? '';

      expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
      expect(csp).toMatch(/(^|; )script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
    });
  });

  it('puts data into the page as text only: no HTML sink in its script', () => {
    // The data path: JSON → textContent / insertCell / createElement. None of these parse markup.
    expect(PAGE_HTML).toContain('td.textContent = String(text)');
    for (const sink of ['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'document.write', 'eval('])
      expect(PAGE_HTML).not.toContain(sink);
  });
});
