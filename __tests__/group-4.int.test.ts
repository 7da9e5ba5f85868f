// Scenario tier: a share of the *.int.test.ts files, run in one module registry (__tests__/groups.js).
import { runGroup } from './groups.js'
await runGroup(import.meta.filename)
