// Unit tier: every input read and checked into settings.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it, expect } from '@jest/globals'
import { parseDuration } from '../src/settings/parse.js'
import { isLoopback } from '../src/proxy.js'
import { InputError } from '../src/errors.js'
import {
  readSettings,
  readTriggerSettings,
  type AnalyticsSettings,
  type JobSettings,
  type Settings,
  type SettingsContext
} from '../src/settings/settings.js'
import { tempDir } from './temp-dirs.js'
import { DEFAULTS, INPUT_NAMES, refuseUnknownInputs } from '../src/settings/names.js'

const defaults: Record<string, string> = {
  command: 'message',
  'api-key': 'mint_abc123',
  'project-id': 'proj',
  'base-url': 'https://api.example.com',
  'job-id': 'job-1',
  prompt: 'Fix the typo',
  wait: 'true',
  'wait-timeout': '30m',
  'poll-interval': '5s',
  'job-path': '/v2/agent/{projectId}/job/{id}',
  'fail-on-status': 'failed',
  'page-size': '250',
  'max-rows': '0',
  concurrency: '4',
  top: '20',
  compare: 'false',
  summary: 'true',
  comment: 'auto',
  'comment-mode': 'upsert',
  'github-token': 'ghs_x',
  trigger: '/docs-agent',
  permission: 'write'
}
const ctx: SettingsContext = {
  now: new Date('2026-11-18T10:00:00Z'),
  workspace: '/ws',
  commentEvent: false
}

/** Every input is read whatever the command; the tests look at each field as it was read. */
type AnySettings = Omit<JobSettings, 'command'> & Omit<AnalyticsSettings, 'command'> & Settings

function read(over: Record<string, string>, c = ctx): AnySettings {
  const inputs = { ...defaults, ...over }
  return readSettings(name => inputs[name] ?? '', c) as AnySettings
}

function errorOf(over: Record<string, string>, c = ctx): InputError {
  try {
    read(over, c)
  } catch (err) {
    if (err instanceof InputError) return err
    throw err
  }
  throw new Error('no error')
}

describe('readSettings', () => {
  it('reads the defaults into typed settings', () => {
    const s = read({})
    expect(s).toMatchObject({
      command: 'message',
      baseUrl: 'https://api.example.com',
      wait: true,
      waitTimeoutMs: 1_800_000,
      pollIntervalMs: 5_000,
      failOnStatus: ['failed'],
      pageSize: 250,
      concurrency: 4,
      comment: 'auto'
    })
  })

  it('keeps a base-url path prefix without its trailing slash', () => {
    expect(read({ 'base-url': 'https://x.example/api/' }).baseUrl).toBe('https://x.example/api')
  })

  it.each(['http://127.0.0.1:8080', 'http://localhost:1', 'http://[::1]:9', 'http://127.5.6.7'])(
    'accepts http for loopback %s',
    url => expect(read({ 'base-url': url }).baseUrl).toBe(url.replace(/\/$/, ''))
  )

  it.each([
    [{ command: '' }, 'command'],
    [{ command: 'send' }, 'command'],
    [{ 'api-key': '' }, 'api-key'],
    [{ 'api-key': 'mint_a b' }, 'api-key'],
    [{ 'api-key': 'mint_ab\n' }, 'api-key'],
    [{ 'api-key': 'mint_a\u0007b' }, 'api-key'],
    [{ 'project-id': '' }, 'project-id'],
    [{ 'base-url': 'http://api.example.com' }, 'base-url'],
    [{ 'base-url': 'api.example.com' }, 'base-url'],
    [{ 'base-url': 'https://u:p@api.example.com' }, 'base-url'],
    [{ 'base-url': 'https://api.example.com/?x=1' }, 'base-url'],
    [{ 'job-id': '' }, 'job-id'],
    [{ prompt: '   ' }, 'prompt'],
    [{ wait: 'yes' }, 'wait'],
    [{ 'wait-timeout': '0' }, 'wait-timeout'],
    [{ 'wait-timeout': '5 minutes' }, 'wait-timeout'],
    [{ 'wait-timeout': '100h' }, 'wait-timeout'],
    [{ 'poll-interval': '-1' }, 'poll-interval'],
    [{ 'job-path': 'v2/job' }, 'job-path'],
    [{ 'fail-on-status': 'failed,done' }, 'fail-on-status'],
    [{ 'page-size': '251' }, 'page-size'],
    [{ 'max-rows': '-5' }, 'max-rows'],
    [{ concurrency: '0' }, 'concurrency'],
    [{ top: '1.5' }, 'top'],
    [{ comment: 'yes' }, 'comment'],
    [{ 'comment-mode': 'append' }, 'comment-mode'],
    [{ 'issue-number': '0' }, 'issue-number'],
    [{ trigger: '/docs agent' }, 'trigger'],
    [{ permission: 'none' }, 'permission'],
    [{ command: 'visitors', 'output-file': 'out.txt' }, 'output-file'],
    [{ command: 'report', 'output-file': 'out.csv' }, 'output-file'],
    [{ command: 'visitors', 'output-file': '../x.json' }, 'output-file'],
    [{ command: 'visitors', 'output-file': '/etc/x.json' }, 'output-file'],
    [{ command: 'visit' }, 'command'],
    [{ 'job-id': '..' }, 'job-id'],
    [{ 'job-id': '.' }, 'job-id'],
    [{ 'project-id': '..' }, 'project-id'],
    [{ 'api-key': 'mint_caf\u00e9' }, 'api-key'],
    [{ 'api-key': 'mint_a\u200bb' }, 'api-key'],
    [{ 'github-token': 'ghs_a\nb' }, 'github-token'],
    [{ 'github-token': 'ghs_\u00e9' }, 'github-token'],
    [{ 'when-no-job': 'start' }, 'when-no-job'],
    [{ 'settle-time': 'soon' }, 'settle-time'],
    [{ context: 'yes' }, 'context'],
    [{ prompt: 'x', 'prompt-file': 'p.md' }, 'prompt-file'],
    [{ prompt: '', 'prompt-file': 'missing.md' }, 'prompt-file'],
    [{ command: 'create', prompt: '  ' }, 'prompt'],
    [{ command: 'report', sections: 'visitors,clicks' }, 'sections'],
    [{ command: 'report', sections: ' , ' }, 'sections'],
    [{ command: 'report', 'site-url': 'ftp://docs.example.com' }, 'site-url'],
    [{ command: 'report', 'site-url': 'http://docs.example.com' }, 'site-url'],
    [{ command: 'report', 'site-url': 'docs' }, 'site-url'],
    [{ 'allowed-users': 'alice, bob smith!' }, 'allowed-users'],
    [{ 'allowed-bots': 'renovate[bot], *' }, 'allowed-bots']
  ])('rejects %j naming the input', (over, input) => {
    const err = errorOf(over)
    expect(err.input).toBe(input)
    expect(err.message).toContain(`\`${input}\``)
  })

  it('needs no job-id or prompt on a comment event (the comment and its PR give them)', () => {
    const s = read(
      { 'job-id': '', prompt: '' },
      { ...ctx, commentEvent: true, triggerPrompt: 'fix the typo' }
    )
    expect(s.jobId).toBe('')
    expect(s.prompt).toBe('fix the typo')
  })

  it('settles the prompt once: the input wins over the comment, and an empty one names `prompt`', () => {
    const event = { ...ctx, commentEvent: true, triggerPrompt: 'from the comment' }
    expect(read({ 'job-id': '', prompt: 'from the input' }, event).prompt).toBe('from the input')
    expect(() => read({ 'job-id': '', prompt: '' }, { ...event, triggerPrompt: ' ' })).toThrow(
      /^Input `prompt`: is required/
    )
  })

  it('sends an instruction as its answer shows it: nothing invisible, controls as spaces', () => {
    const tag = (t: string) => [...t].map(c => String.fromCodePoint(0xe0000 + c.charCodeAt(0)))
    const event = { ...ctx, commentEvent: true, triggerPrompt: `fix it${tag('and more').join('')}` }
    expect(read({ 'job-id': '', prompt: '' }, event).prompt).toBe('fix it')
    expect(read({ prompt: 'a\u200bb\u0007c\r\nd\uFE0F' }).prompt).toBe('ab c\nd')
    // Only invisible characters: no instruction at all.
    expect(() => read({ prompt: '\u200b\u2060' })).toThrow(/^Input `prompt`: is required/)
  })

  it('takes an unevaluated ${{ github.token }} default for no token', () => {
    expect(read({ 'github-token': '${{ github.token }}' }).githubToken).toBe('')
  })

  it('takes the default for an input set to empty text', () => {
    const s = read({
      wait: '',
      'wait-timeout': '',
      'base-url': '',
      concurrency: '',
      comment: '',
      'settle-time': ''
    })
    expect(s).toMatchObject({
      wait: true,
      waitTimeoutMs: 1_800_000,
      baseUrl: 'https://api.mintlify.com',
      concurrency: 4,
      comment: 'auto',
      settleTimeMs: 60_000
    })
  })

  it.each([
    [{ command: 'chek' }, 'command', 'check'],
    [{ command: 'Report' }, 'command', 'report'],
    [{ 'comment-mode': 'minimise' }, 'comment-mode', 'minimize'],
    [{ 'when-no-job': 'creat' }, 'when-no-job', 'create'],
    [{ permission: 'writer' }, 'permission', 'write'],
    [{ command: 'create', checks: 'requires' }, 'checks', 'require'],
    [{ command: 'report', sections: 'visitors,serches' }, 'sections', 'searches'],
    [{ 'fail-on-status': 'faild' }, 'fail-on-status', 'failed']
  ])('a typo in an enumerated value, %j, gets "did you mean"', (over, input, meant) => {
    const err = errorOf(over)
    expect(err.input).toBe(input)
    expect(err.message).toContain(`did you mean \`${meant}\`?`)
  })

  it('no "did you mean" for a value near nothing accepted', () => {
    expect(errorOf({ command: 'deploy' }).message).not.toContain('did you mean')
    expect(errorOf({ 'comment-mode': 'append' }).message).not.toContain('did you mean')
  })

  it('refuses an INPUT_* variable action.yml does not declare, naming the nearest input', () => {
    const given = INPUT_NAMES.map(n => `INPUT_${n.toUpperCase()}`)
    expect(() => refuseUnknownInputs(given)).not.toThrow()
    expect(() => refuseUnknownInputs([...given, 'INPUT_PEROD'])).toThrow(
      /^`perod` is not an input of this action; did you mean `period`\? Check the `with:` keys/
    )
    // A key written with underscores is another input for the runner: dashes are kept.
    expect(() => refuseUnknownInputs(['INPUT_PAGE_SIZE'])).toThrow(
      /^`page_size` is not an input of this action; did you mean `page-size`\?/
    )
    expect(() => refuseUnknownInputs(['INPUT_APIKEY', 'INPUT_PROJECTID'])).toThrow(
      /^`apikey` is not an input of this action; did you mean `api-key`\? Nor are `projectid`\./
    )
    // A hand-written `.env` may write a declared input in small letters: it is still declared.
    expect(() => refuseUnknownInputs(['INPUT_command', 'INPUT_Page-Size'])).not.toThrow()
    // Other variables are not inputs.
    expect(() => refuseUnknownInputs(['GITHUB_TOKEN', 'INPUTS'])).not.toThrow()
  })

  it('a missing `project-id` says it is a Variable, not a Secret; a key in it says they may be swapped', () => {
    expect(errorOf({ 'project-id': '' }).message).toMatch(
      /^Input `project-id`: is required: .*It is a Variable, not a Secret: .*\$\{\{ vars\.DOCS_PROJECT_ID \}\}/
    )
    expect(errorOf({ 'project-id': 'mint_abc123' }).message).toMatch(
      /looks like an API key .* the key goes in `api-key` \(a secret\), the project id in `project-id` \(a variable\)/
    )
    expect(errorOf({ 'api-key': '' }).message).toMatch(
      /a repository Secret .*\$\{\{ secrets\.DOCS_API_KEY \}\}/
    )
    expect(read({ command: 'check' }).command).toBe('check')
  })

  it('warns, naming them, about inputs set for another command', () => {
    expect(read({ period: '7d', top: '5' }).warnings).toEqual([
      'Inputs `period`, `top` do not apply to `command: message` and are ignored.'
    ])
    // A default passed on by the runner is not "set".
    expect(read({ top: '20', sections: DEFAULTS.sections ?? '' }).warnings).toEqual([])
    expect(read({ command: 'visitors', 'job-id': 'j', prompt: 'x' }).warnings).toEqual([
      'Inputs `job-id`, `prompt` do not apply to `command: visitors` and are ignored.'
    ])
  })

  it.each([
    ['mint_dsc_abc', 'assistant'],
    ['mint_us_abc', 'search index'],
    ['abc', 'does not start with `mint_`'],
    ['abc123', 'does not start with `mint_`'],
    ['key_X', 'does not start with `mint_`']
  ])('warns about a key of another kind: %s', (key, words) => {
    expect(read({ 'api-key': key }).warnings.join(' ')).toContain(words)
  })

  it.each([
    ['DOCS_API_KEY', /name of a secret[\s\S]*\$\{\{ secrets\.NAME \}\}/],
    ['MINT_KEY2', /name of a secret/],
    ['sk-ant-api03-abcdefghijklmnop', /`mint_`/],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', /GitHub[\s\S]*`mint_`/],
    ['gho_abc', /GitHub/],
    ['ghs_abc', /GitHub/],
    ['github_pat_11ABC', /GitHub/],
    ['xoxb-123-456', /Slack/],
    ['AKIAIOSFODNN7EXAMPLE', /AWS/],
    ['AIzaSyA-abc', /Google/],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig', /JSON web token/]
  ])('refuses %s before any request, naming the fix and not the value', (key, words) => {
    const err = errorOf({ 'api-key': key })
    expect(err.input).toBe('api-key')
    expect(err.message).toMatch(words)
    expect(err.message).not.toContain(key)
  })

  it('reads a huge key without overflowing the regular expression engine', () => {
    expect(errorOf({ 'api-key': `mint_${'a'.repeat(5_000_000)}\u00e9` }).message).toMatch(
      /printable ASCII/
    )
  })

  it('reads notify-pr and notify-token', () => {
    const url = 'https://github.com/octo/api/pull/42'
    const repo = { 'notify-repository': 'octo/api' }
    expect(read({ 'notify-pr': url, 'notify-token': 'ghp_x1', ...repo })).toMatchObject({
      notifyPr: url,
      notifyToken: 'ghp_x1',
      notifyRepository: 'octo/api'
    })
    expect(read({})).toMatchObject({ notifyPr: '', notifyToken: '' })
    expect(errorOf({ 'notify-pr': 'https://github.com/octo/api/issues/42' }).input).toBe(
      'notify-pr'
    )
    expect(errorOf({ 'notify-token': 'a b', ...repo }).input).toBe('notify-token')
  })

  it('requires notify-repository whenever notify-token is set (owner/name)', () => {
    const missing = errorOf({ 'notify-token': 'ghp_x1' })
    expect(missing.input).toBe('notify-repository')
    expect(missing.message).toMatch(/required with `notify-token`/)
    expect(errorOf({ command: 'check', 'notify-token': 'ghp_x1' }).input).toBe('notify-repository')
    for (const bad of ['octo', 'octo/api/x', 'https://github.com/octo/api', 'octo/..', '-x/api'])
      expect(errorOf({ 'notify-token': 'ghp_x1', 'notify-repository': bad }).input).toBe(
        'notify-repository'
      )
    // Without the token it is not needed; a command that does not tell reads neither.
    expect(read({ 'notify-repository': '' })).toMatchObject({ notifyRepository: '' })
    expect(read({ command: 'visitors', period: '7d', 'notify-token': 'ghp_x1' })).toMatchObject({
      notifyRepository: ''
    })
  })

  it('reads create without a job id', () => {
    expect(read({ command: 'create', 'job-id': '' })).toMatchObject({
      command: 'create',
      jobId: ''
    })
  })

  it('reads the report sections in the given order, once each', () => {
    expect(read({ command: 'report', sections: 'Feedback, visitors,feedback' }).sections).toEqual([
      'feedback',
      'visitors'
    ])
    expect(read({ command: 'report' }).sections).toEqual([
      'visitors',
      'views',
      'searches',
      'feedback',
      'assistant'
    ])
  })

  it('reads site-url without its trailing slash', () => {
    expect(read({ command: 'visitors', 'site-url': 'https://docs.example.com/en/' }).siteUrl).toBe(
      'https://docs.example.com/en'
    )
  })

  it('parses fail-on-status lists, and empty as none', () => {
    expect(read({ 'fail-on-status': 'failed, archived' }).failOnStatus).toEqual([
      'failed',
      'archived'
    ])
    expect(read({ 'fail-on-status': '' }).failOnStatus).toEqual([])
  })

  it('resolves output-file against the workspace and reads its format', () => {
    expect(read({ command: 'visitors', 'output-file': 'out/v.CSV' }).outputFile).toEqual({
      path: 'out/v.CSV',
      absolute: '/ws/out/v.CSV',
      format: 'csv'
    })
  })
})

describe('files inside the workspace', () => {
  const ws = tempDir('ws-')
  const outside = tempDir('outside-')
  mkdirSync(join(ws, 'docs'))
  writeFileSync(join(ws, 'docs', 'prompt.md'), '\uFEFF  Update the install guide.\n')
  writeFileSync(join(ws, 'empty.md'), ' \n')
  writeFileSync(join(ws, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9]))
  writeFileSync(join(outside, 'secret.md'), 'not yours')
  symlinkSync(outside, join(ws, 'out-link'))
  symlinkSync(join(outside, 'secret.md'), join(ws, 'secret-link.md'))
  symlinkSync(join(outside, 'nothing.json'), join(ws, 'dangling.json'))
  const c = { ...ctx, workspace: ws }

  it('reads prompt-file as the prompt', () => {
    const s = read({ prompt: '', 'prompt-file': 'docs/prompt.md' }, c)
    expect(s.prompt).toBe('Update the install guide.')
    expect(s.promptFile).toBe('docs/prompt.md')
  })

  it.each([
    ['../outside.md', 'leads outside the workspace'],
    ['secret-link.md', 'through a symlink'],
    ['out-link/secret.md', 'through a symlink'],
    ['empty.md', 'is empty'],
    ['latin1.md', 'not UTF-8'],
    ['docs', 'not a readable file']
  ])('refuses prompt-file %s', (file, words) => {
    const err = errorOf({ prompt: '', 'prompt-file': file }, c)
    expect(err.input).toBe('prompt-file')
    expect(err.message).toContain(words)
  })

  it.each(['out-link/v.json', 'out-link/new/v.json', 'dangling.json', `${outside}/v.json`])(
    'refuses output-file %s',
    file => {
      expect(errorOf({ command: 'visitors', 'output-file': file }, c).input).toBe('output-file')
    }
  )

  it('accepts an absolute output-file inside the workspace, and new folders', () => {
    expect(
      read({ command: 'visitors', 'output-file': join(ws, 'new', 'v.ndjson') }, c).outputFile
    ).toMatchObject({ absolute: join(ws, 'new', 'v.ndjson'), format: 'ndjson' })
  })
})

describe('readTriggerSettings', () => {
  const t = (over: Record<string, string>) => {
    const inputs = { ...defaults, ...over }
    return readTriggerSettings(name => inputs[name] ?? '')
  }

  it('reads logins lower-cased, bots with their [bot] suffix', () => {
    expect(
      t({ 'allowed-users': '@Alice, bob', 'allowed-bots': 'Renovate[bot] dependabot' })
    ).toMatchObject({
      allowedUsers: ['alice', 'bob'],
      allowedBots: ['renovate[bot]', 'dependabot[bot]']
    })
    expect(t({ 'allowed-bots': ' * ' }).allowedBots).toBe('*')
    expect(t({}).allowedUsers).toEqual([])
  })

  it('knows whether comments may be written', () => {
    expect(t({ comment: 'false' }).comment).toBe('false')
    expect(t({ comment: '' }).comment).toBe('auto')
  })
})

describe('readSettings for visitors', () => {
  const v = (over: Record<string, string>) => read({ command: 'visitors', ...over })

  it('sends dates exactly as given', () => {
    const s = v({ 'date-from': '2026-11-01T00:00:00+02:00', 'date-to': '2026-11-08' })
    expect(s.range).toEqual({ dateFrom: '2026-11-01T00:00:00+02:00', dateTo: '2026-11-08' })
  })

  it('resolves a period and its previous range for compare', () => {
    const s = v({ period: 'last-week', compare: 'true' })
    expect(s.range).toEqual({ dateFrom: '2026-11-09', dateTo: '2026-11-16' })
    expect(s.previous).toEqual({ dateFrom: '2026-11-02', dateTo: '2026-11-09' })
  })

  it('sends no date when neither is set', () => {
    expect(v({}).range).toEqual({})
  })

  it.each([
    [{ 'date-from': '2026-02-30' }, 'date-from'],
    [{ 'date-to': '2026-13-01' }, 'date-to'],
    [{ 'date-from': '2026-11-08', 'date-to': '2026-11-08' }, 'date-to'],
    [{ 'date-from': '2026-11-08', 'date-to': '2026-11-01' }, 'date-to'],
    [{ 'date-from': 'last week' }, 'date-from'],
    [{ period: '0d' }, 'period'],
    [{ period: '367d' }, 'period'],
    [{ period: 'last-year' }, 'period'],
    [{ period: '7d', 'date-from': '2026-11-01' }, 'period'],
    [{ compare: 'true' }, 'compare'],
    [{ compare: 'true', 'date-from': '2026-11-01' }, 'compare']
  ])('rejects %j naming the input', (over, input) => {
    expect(errorOf({ command: 'visitors', ...over }).input).toBe(input)
  })
})

describe('parseDuration', () => {
  it.each([
    ['90s', 90_000],
    ['15m', 900_000],
    ['2h', 7_200_000],
    ['45', 45_000],
    ['0.5', 500],
    ['250ms', 250]
  ])('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms))

  it.each(['', 's', '1d', '-1', '1 h 2m', '1e3'])('rejects %j', text =>
    expect(parseDuration(text)).toBeUndefined()
  )
})

describe('isLoopback', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['10.0.0.1', false],
    ['example.com', false],
    ['127.0.0.1.example.com', false]
  ])('%s -> %s', (host, want) => expect(isLoopback(host)).toBe(want))
})
