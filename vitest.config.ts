import { defineConfig } from 'vitest/config';

// Three projects: unit tests (pure, no I/O, beside the code), integration tests (real SQLite/PostgreSQL
// files, listening servers, pseudo-terminals) and the end-to-end suites in test/ (cloud, agent and board
// simulator as real processes). scripts/test runs the end-to-end project beside the other two, each one
// file at a time, so the two cores are both busy and no two end-to-end suites ever share the machine.
const integration = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' as const };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'firmware-sim/src/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        test: { name: 'integration', include: ['**/src/**/*.int.test.ts'], exclude: ['**/node_modules/**'], ...integration },
      },
      {
        test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**'], ...integration },
      },
    ],
    allowOnly: false,
  },
});
