// The entry point, and the only file with side effects on import. Tools that run the action's
// logic themselves (`@github/local-action run . src/main.ts .env`) import main.ts instead.
import { run } from './main.js'

await run()
// The exit code is already set (core.setFailed sets process.exitCode). A run that cleaned up
// ends by itself before this timer; it fires only when something abandoned (a kept-alive socket,
// a read-ahead page still retrying) would hold the step open, and its grace period lets piped
// stdout drain first, which an immediate process.exit() could cut short.
setTimeout(() => process.exit(), 1_000).unref()
