// The feedback section with every page it read (`rows`), for what a fix did: a page's 👎 are
// counted among all the by-page rows the report read, not only the pages it shows. The reader
// (feedback.ts) keeps the pages it shows; the rows of the range are taken from its own request
// as it reads them (no request more), the period before's left out.
import type { AnalyticsApi } from '../../service/analytics.js'
import type { FeedbackRow } from '../../service/analytics-answers.js'
import { eachPathOnce } from '../top.js'
import { readFeedback, type FeedbackSection } from './feedback.js'
import type { SectionInput } from './section.js'

export interface FeedbackRead extends FeedbackSection {
  /** Every page read for the range, each once: what a fix did is counted among them. Not in the JSON. */
  rows?: FeedbackRow[]
}

export async function readFeedbackRows(input: SectionInput): Promise<FeedbackRead> {
  let rows: FeedbackRow[] | undefined
  const api = Object.create(input.api) as AnalyticsApi
  api.feedbackByPage = async (...args: Parameters<AnalyticsApi['feedbackByPage']>) => {
    const page = await input.api.feedbackByPage(...args)
    // The range's own read (asked again with fewer pages after a gateway timeout: the last).
    if (args[0] === input.range) rows = page.feedback
    return page
  }
  const section = await readFeedback({ ...input, api })
  return rows ? { ...section, rows: eachPathOnce(rows) } : section
}
