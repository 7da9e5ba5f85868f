// Unit tier: a share of the unit test files, run in one module registry (__tests__/groups.js).
import { runGroup } from './groups.js'
await runGroup(import.meta.filename)
