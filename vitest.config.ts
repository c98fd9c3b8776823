import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Integration tests spend most of their time waiting on Redis, the sandbox and the CLI processes
    // they spawn: four files at once keep two cores busy without starving one another.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          // Pure logic, no Redis or server: one module graph per worker, loaded once (`npm run test:unit`).
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
        },
      },
    ],
  },
});
