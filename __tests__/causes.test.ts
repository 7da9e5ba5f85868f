// Unit tier: causes, and who fixes them (src/causes.ts): the one reading of an error into what went
// wrong, what to change, who changes it and whether a re-run can help; and the failure line the
// step ends with.
import { describe, it, expect } from '@jest/globals'
import { causeOf, failureLine, fixerSentence } from '../src/causes.js'
import { TimeUpError, whoFixes } from '../src/errors.js'
import { GitHubError } from '../src/github/errors.js'
import { IssueMissingError } from '../src/github/issues.js'
import { UnreachedError, type NetworkCause } from '../src/network.js'
import { BudgetError, RateLimitError, requestFailure } from '../src/service/errors.js'

const answered = (status: number, why: string, method: 'GET' | 'POST' = 'POST') =>
  requestFailure('POST /v2/agent/p/job', { outcome: { kind: 'answer', status }, why }, 1, method)
const proxy407: NetworkCause = {
  kind: 'proxy-status',
  proxy: 'proxy.corp:8080',
  variable: 'HTTPS_PROXY',
  target: 'api.mintlify.com:443',
  status: 407
}

describe('causeOf', () => {
  it.each([
    [
      'a key refused (401)',
      answered(401, '401 Unauthorized: API key has expired'),
      'key-expired',
      'workflow'
    ],
    [
      'a read-only key (403)',
      answered(403, '403 Forbidden: This API key is read-only and cannot perform this action'),
      'key-scope',
      'workflow'
    ],
    [
      'a key of another organisation (403)',
      answered(403, '403 Forbidden: Forbidden'),
      'key-refused',
      'workflow'
    ],
    [
      'a project the service does not know',
      answered(404, '404 Not Found: Project not found'),
      'project',
      'workflow'
    ],
    [
      'a missing issue',
      new IssueMissingError({ owner: 'o', repo: 'r', issueNumber: 9 }, 404),
      'issue',
      'workflow'
    ],
    [
      '`max-requests` spent',
      new BudgetError(5, 'reading the views analytics'),
      'budget',
      'workflow'
    ],
    ['a proxy wanting credentials', new UnreachedError(proxy407), 'network', 'workflow'],
    [
      'a proxy refusing tunnels',
      new UnreachedError({ ...proxy407, status: 405 }),
      'network',
      'network'
    ],
    ['a 503', answered(503, '503 Service Unavailable', 'GET'), 'passing', 'rerun'],
    ['a spent hourly limit', new RateLimitError('429', new Date(0), false), 'passing', 'rerun']
  ])('%s', (_, err, kind, fixer) => {
    const c = causeOf(err)!
    expect(c.kind).toBe(kind)
    expect(c.fixer).toBe(fixer)
    expect(c.retry).toBe(fixer === 'rerun')
    expect(c.fix).not.toBe('')
  })

  it('a time-up says the cause it wraps, and nothing of its own', () => {
    expect(causeOf(new TimeUpError('the job', answered(401, '401')))?.kind).toBe('key-expired')
    expect(causeOf(new TimeUpError('the job'))).toBeUndefined()
  })

  it('GitHub refusing `notify-token` is that token’s cause, with its own fix', () => {
    const refused = new GitHubError(
      'commenting on #42',
      403,
      'Resource not accessible by integration',
      undefined,
      undefined,
      {
        input: 'notify-token',
        permission: 'issues: write',
        repository: 'octo/api'
      }
    )
    const c = causeOf(refused)!
    expect(c).toMatchObject({
      kind: 'notify-token',
      what: 'GitHub refused `notify-token` (403)',
      retry: false
    })
    expect(c.fix).toContain('`notify-repository`')
    expect(c.fix).not.toContain('give the workflow')
  })
})

describe('who fixes it, in words', () => {
  it('this workflow, the network’s administrators, or nobody', () => {
    expect(whoFixes('workflow')).toBe("this workflow's maintainers")
    expect(whoFixes('workflow', 'octo/docs')).toBe(
      'the maintainers of the docs workflow in octo/docs'
    )
    expect(whoFixes('network')).toBe("the network's administrators (the proxy's)")
    expect(whoFixes('rerun')).toBeUndefined()
    expect(fixerSentence(causeOf(answered(503, '503', 'GET')))).toBe('')
  })

  it('the failure line: the message, the fix when it is not said yet, who changes it', () => {
    const missing = new IssueMissingError({ owner: 'o', repo: 'r', issueNumber: 9 }, 404)
    expect(failureLine(missing, missing.message)).toBe(
      'Issue #9 does not exist in o/r (GitHub answered 404), so nothing was read and nothing posted. ' +
        'To fix: check `issue-number`: it must name an issue or pull request of o/r (the tracking ' +
        'issue the report is posted on), or leave it out to write the job summary only. ' +
        "This workflow's maintainers must change this first: a re-run as it is fails the same way."
    )
    // The service's refusal says its hint already: only who changes it is added.
    const scope = answered(403, '403 Forbidden: This API key is read-only')
    const line = failureLine(scope, scope.message)
    expect(line.match(/replace it with an admin API key/g)).toHaveLength(1)
    expect(line).toMatch(/\. This workflow's maintainers must change this first/)
    // A cause that passes: the message as it is.
    const passing = answered(503, '503 Service Unavailable', 'GET')
    expect(failureLine(passing, passing.message)).toBe(passing.message)
  })
})
