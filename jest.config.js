// ts-jest's ESM preset: run with NODE_OPTIONS=--experimental-vm-modules (see package.json).
import { availableParallelism } from 'node:os'

/** @type {import('jest').Config} */
export default {
  preset: 'ts-jest/presets/default-esm',
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // tsconfig's isolatedModules makes ts-jest transpile each file alone (no type check here:
  // `npm run typecheck` does that), which keeps a cold start short.
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }] },
  // Most suites wait on child processes and simulators rather than compute, so two workers on a
  // 2-core machine (jest's default would be one) nearly halve the wall time.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  testTimeout: 60000,
  // After each test file, the temporary folders its runs made are removed.
  setupFilesAfterEnv: ['<rootDir>/__tests__/cleanup.ts'],
  // A whole run hands jest groups of test files, each group in one module registry.
  testSequencer: '<rootDir>/__tests__/sequencer.js'
}
