import { defineConfig } from 'vitest/config';

/**
 * Test files that replace modules or globals (vi.mock, vi.stubGlobal) or intercept HTTP for the
 * whole process (nock): each gets a module graph of its own. The others share their worker's
 * modules, loaded once: reloading bullmq, ioredis and the CLI for every file was a sixth of the
 * suite's time. test/unit/isolated-tests.test.ts fails when a file that mocks is not listed here.
 */
const ISOLATED = [
  'test/hostile/**/*.test.ts',
  'test/http/**/*.test.ts',
  'test/integration/sandbox/cli-command.test.ts',
  'test/integration/notify/notify.test.ts',
  'test/integration/notify/post-webhook.test.ts',
  'test/integration/dashboard/command.test.ts',
];

export default defineConfig({
  test: {
    // Integration tests spend much of their time waiting on Redis, the sandbox and the CLI
    // processes they spawn: five files at once keep two cores busy (measured here: 4 → 5 took
    // vitest from 114 s to 103 s; past that the CPU, not the waits, bounds it).
    maxWorkers: 5,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          // Pure logic, no Redis or server: one module graph per worker (`npm run test:unit`).
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**', ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
