import { defineConfig } from 'vitest/config';

// Two projects: unit tests (pure, no I/O, beside the code) and integration tests
// (real SQLite/PostgreSQL files, listening servers, pseudo-terminals).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'firmware-sim/src/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['**/src/**/*.int.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
    ],
    allowOnly: false,
  },
});
