// What the report draws for each section: what it read, or why it could not.
import type { AssistantSection } from './assistant.js'
import type { FeedbackSection } from './feedback.js'
import type { SearchesSection } from './searches.js'
import type { SectionFailure } from './section.js'
import type { PagesSection } from './visitors.js'

export type Section = PagesSection | SearchesSection | FeedbackSection | AssistantSection
export type SectionOutcome = Section | SectionFailure
