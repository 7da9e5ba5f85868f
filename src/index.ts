// The entry point, and the only file with side effects on import.
import { run } from './main.js'

await run()
// Kept-alive sockets or an abandoned request must not hold the step open once the work is done.
process.exit()
