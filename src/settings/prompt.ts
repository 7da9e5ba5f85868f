// The instruction of `message` and `create`: from `prompt`, `prompt-file` (read inside the
// workspace, bounded, UTF-8) or else the trigger comment, cleaned, and the rule every instruction
// meets, checked once (readSettings, before any request).
import { lstatSync, readFileSync } from 'node:fs'
import { type GetInput } from './parse.js'
import { InputError, quote } from '../errors.js'
import { redact } from '../secrets/redact.js'
import { instructionText } from '../public-text.js'
import { insideWorkspace } from '../workspace/files.js'

const PROMPT_FILE_MAX_BYTES = 256 * 1024

/** The prompt rule, also applied to a prompt that comes from a trigger comment. */
export function checkPrompt(prompt: string, from: 'prompt' | 'prompt-file' = 'prompt'): void {
  if (prompt.trim() === '')
    throw new InputError(
      'prompt',
      'is required: the instruction for the agent, at least 1 character (or set `prompt-file`)'
    )
  // The instruction is sent to the agent and shown in comments: never with a secret in it.
  if (redact(prompt) !== prompt)
    throw new InputError(
      from,
      'holds the `api-key` or the `github-token` (in some form): nothing was sent. Remove the ' +
        'secret from the instruction (and rotate it if it was committed)'
    )
}

/**
 * `prompt-file` replaces `prompt`: read here, so a missing or unreadable file fails before any
 * request. Undefined when it is not set.
 */
export function readPromptFile(
  get: GetInput,
  prompt: string,
  workspace: string
): { path: string; prompt: string } | undefined {
  const file = get('prompt-file')
  if (file === '') return undefined
  if (prompt !== '')
    throw new InputError('prompt-file', 'cannot be combined with `prompt`: use one or the other')
  const absolute = insideWorkspace('prompt-file', file, workspace)
  let bytes: Buffer
  let size: number
  try {
    const stat = lstatSync(absolute)
    if (!stat.isFile()) throw new Error('not a file')
    size = stat.size
  } catch {
    throw new InputError('prompt-file', `${quote(file)} is not a readable file in the workspace`)
  }
  // Checked before it is read: a huge file is refused without being loaded.
  if (size > PROMPT_FILE_MAX_BYTES)
    throw new InputError(
      'prompt-file',
      `${quote(file)} has ${size} bytes; at most ${PROMPT_FILE_MAX_BYTES} are accepted`
    )
  try {
    bytes = readFileSync(absolute)
  } catch {
    throw new InputError('prompt-file', `${quote(file)} is not a readable file in the workspace`)
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new InputError('prompt-file', `${quote(file)} is not UTF-8 text`)
  }
  const fromFile = text.replace(/^\uFEFF/, '').trim()
  if (fromFile === '') throw new InputError('prompt-file', `${quote(file)} is empty`)
  return { path: file, prompt: fromFile }
}

/**
 * The one instruction, from `prompt` (as read), `prompt-file` or else the trigger comment
 * (`triggerPrompt`), checked once; and that `message` has a job to go to.
 */
export function readInstruction(
  get: GetInput,
  given: { prompt: string; jobId: string },
  ctx: { workspace: string; commentEvent: boolean; triggerPrompt?: string },
  command: 'message' | 'create'
): { prompt: string; promptFile?: string } {
  const file = readPromptFile(get, given.prompt, ctx.workspace)
  if (command === 'message' && !ctx.commentEvent && given.jobId === '')
    throw new InputError(
      'job-id',
      'is required for `command: message` (the agent job to follow up); use `command: create` to start a new job'
    )
  const text = file?.prompt ?? given.prompt
  // Sent as the answer shows it: nothing invisible can ride along unseen.
  const raw = text === '' ? (ctx.triggerPrompt ?? '') : text
  const prompt = instructionText(raw).trim()
  // As given too: a secret spelled in what the cleaning removes (tag characters) was pasted in.
  checkPrompt(redact(raw) === raw ? prompt : raw, file ? 'prompt-file' : 'prompt')
  return file ? { prompt, promptFile: file.path } : { prompt }
}
