// Preloaded into the action's process by `npm run bench` (node --import): on exit, writes the
// process's peak resident set size, in bytes, to the file named by RSS_REPORT_FILE.
import fs from 'node:fs'

process.on('exit', () => {
  const file = process.env.RSS_REPORT_FILE
  // maxRSS is in KiB.
  if (file) fs.writeFileSync(file, String(process.resourceUsage().maxRSS * 1024))
})
