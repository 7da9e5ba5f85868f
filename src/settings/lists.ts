// The values of the list-like inputs (`sections`, `fail-on-status`, `trigger`, `output-file`,
// `report-files`), read and checked for settings.ts.
import { formatFromPath, type FileFormat } from '../analytics/sinks.js'
import { SECTIONS, type SectionName } from '../analytics/section-names.js'
import { FINAL_STATUSES } from '../service/schema.js'
import { InputError, quote } from '../errors.js'
import { AGENT_LABEL } from '../github/labels.js'
import { insideWorkspace } from '../workspace/files.js'
import { didYouMean } from './parse.js'
import { readFileList, type FileList } from '../workspace/globs.js'

export function readSections(text: string): SectionName[] {
  const items = text
    .split(',')
    .map(item => item.trim().toLowerCase())
    .filter(item => item !== '')
  const accepted = SECTIONS.map(name => `\`${name}\``).join(', ')
  if (items.length === 0)
    throw new InputError('sections', `is empty; expected a comma list of ${accepted}`)
  for (const item of items) {
    if (!(SECTIONS as readonly string[]).includes(item))
      throw new InputError(
        'sections',
        `${quote(item)} is not a section;${didYouMean(item, SECTIONS)} expected a comma list of ${accepted}`
      )
  }
  return [...new Set(items)] as SectionName[]
}

export function readStatuses(text: string): string[] {
  // `''` means none; an input left empty also arrives as '' and takes the default first.
  const items = text
    .split(',')
    .map(s => s.trim())
    .filter(s => s !== '' && s !== "''" && s !== '""')
  for (const item of items) {
    if (!(FINAL_STATUSES as readonly string[]).includes(item))
      throw new InputError(
        'fail-on-status',
        `${quote(item)} is not a final status;${didYouMean(item, FINAL_STATUSES)} expected a comma list of ${FINAL_STATUSES.join(', ')} (or \`''\` for none)`
      )
  }
  return items
}

export function readTrigger(text: string): string {
  if (text === '' || /\s/.test(text))
    throw new InputError('trigger', 'must be one word without spaces, e.g. `/docs-agent`')
  return text
}

/**
 * `trigger-label`: '' (off) or a label name. Never the action's own label (GitHub compares label
 * names without case): the action puts it on every pull request its jobs open, so each would
 * start another job.
 */
export function readTriggerLabel(text: string): string {
  const name = text.trim()
  if (name.toLowerCase() === AGENT_LABEL)
    throw new InputError(
      'trigger-label',
      `cannot be \`${AGENT_LABEL}\`: the action puts that label on the pull requests its jobs ` +
        'open, so each would start another job. Choose another label, e.g. `docs/needed`'
    )
  if (name.length > 50 || /[\p{Cc}]/u.test(name))
    throw new InputError('trigger-label', 'must be a label name: one line, at most 50 characters')
  return name
}

export function readOutputFile(
  text: string,
  workspace: string,
  command: string
): { path: string; absolute: string; format: FileFormat } {
  const format = formatFromPath(text)
  if (command === 'report' && format !== 'json')
    throw new InputError('output-file', `${quote(text)} must end in .json for \`command: report\``)
  if (!format)
    throw new InputError('output-file', `${quote(text)} must end in .json, .csv or .ndjson`)
  return { path: text, absolute: insideWorkspace('output-file', text, workspace), format }
}

/** `report-files`: required for `rollup`; paths and globs, each inside the workspace. */
export function readReportFiles(text: string, workspace: string): FileList {
  if (text.trim() === '')
    throw new InputError(
      'report-files',
      'is required for `command: rollup`: the JSON files `report` runs wrote with `output-file` (paths or globs, comma separated)'
    )
  return readFileList('report-files', text, workspace)
}
