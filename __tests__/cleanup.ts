// Jest's setupFilesAfterEnv: after each test file, the temporary folders its runs and helpers
// made are removed (sim/run-action.js's and __tests__/temp-dirs.ts's).
import { afterAll } from '@jest/globals'
import { removeRunDirs } from '../sim/run-action.js'
import { removeTempDirs } from './temp-dirs.js'

afterAll(() => {
  removeTempDirs()
  removeRunDirs()
})
