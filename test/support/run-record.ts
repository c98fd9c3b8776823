import type { RunRecord, RunSpec } from '../../src/runs/run-store.js';

/** A run's spec as `run` would store it, for tests that build runs by hand; override what matters. */
export function runSpec(overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    source: 'catalog.csv',
    sourceId: null,
    sellerRef: '0123456789abcdef',
    baseUrl: 'https://api.example.com/api/v1',
    keyEnv: 'SELLER_API_KEY',
    matchBy: 'sku',
    dryRun: false,
    dailyReset: '00:00',
    dailyBudget: null,
    allowInsecure: false,
    preset: 'generic',
    fields: null,
    ...overrides,
  };
}

/** A run record as RunStore.get returns it: a finished, empty run unless overridden. */
export function runRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  const createdAt = Date.parse('2024-05-10T02:00:00Z');
  return {
    ...runSpec(),
    id: '20240510T020000-abc123',
    state: 'done',
    createdAt,
    finishedAt: createdAt + 83_000,
    produced: true,
    aborted: false,
    total: 0,
    settled: 0,
    snapshotReady: true,
    requests: 0,
    writes: 0,
    counts: {},
    ...overrides,
  };
}
