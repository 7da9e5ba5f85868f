// The report's sections, by the names the `sections` input takes.
export const SECTIONS = ['visitors', 'views', 'searches', 'feedback', 'assistant'] as const
export type SectionName = (typeof SECTIONS)[number]
