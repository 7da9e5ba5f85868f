// What the report draws for each section: what it read, or why it could not. Types and questions
// only, so the renderers need none of the readers.
import type { AssistantSection } from './assistant.js'
import type { FeedbackRead } from './feedback-rows.js'
import type { SearchesSection } from './searches.js'
import type { SectionFailure } from './section.js'
import type { PagesSection } from './visitors.js'
import type { VisitorRow } from '../../service/schema.js'

export type Section = PagesSection | SearchesSection | FeedbackRead | AssistantSection
export type SectionOutcome = Section | SectionFailure

/** A page's row in a pages section: among its top pages, or those shown for another section. */
export function pageRowOf(section: PagesSection | undefined, path: string): VisitorRow | undefined {
  const of = (rows: readonly VisitorRow[] | undefined) => rows?.find(row => row.path === path)
  return of(section?.top) ?? of(section?.shown)
}
