// `command: report`: the docs-health report (sections are being built).
import type { CommandContext } from './context.js'

export async function runReport(ctx: CommandContext): Promise<void> {
  await Promise.resolve()
  throw new Error(
    `command: report is not built yet (sections: ${ctx.settings.sections.join(', ')})`
  )
}
