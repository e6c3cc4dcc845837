import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'server/**/*.test.ts',
      'platform-client/**/*.test.ts',
      'main/**/*.test.ts',
      'renderer/src/**/*.test.ts',
      'scripts/**/*.test.ts',
    ],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Most test files wait on sockets, child processes and the simulator rather than compute, so one
    // worker more than the cores (vitest's default is one fewer) halves the wall time on 2 cores.
    maxWorkers: availableParallelism() + 1,
    setupFiles: ['./scripts/vitest-setup.ts'],
  },
});
