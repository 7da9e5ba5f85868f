#!/usr/bin/env node
// A stand-in for GitHub's CLI (`gh`), for running the code-side recipes' scripts against the fake
// GitHub (github.js): the commands they use, `gh api PATH [--jq F] [--input FILE] [-X M]` and
// `gh pr edit N --repo R --remove-label L`, with the host and token chosen as gh's manual says
// (`gh help environment`): the host is GH_HOST, else github.com; the token for github.com (or a
// subdomain of ghe.com) is GH_TOKEN (then GITHUB_TOKEN), for any other host (GitHub Enterprise
// Server) GH_ENTERPRISE_TOKEN (then GITHUB_ENTERPRISE_TOKEN). Which address answers for a host
// is SIM_GH_HOSTS (JSON: host → API base URL); a host not there is not reached, as github.com is
// not from a GitHub Enterprise Server's network. Errors are printed as gh prints them, and the
// exit status is 1. Each call is appended to SIM_GH_LOG (JSON lines: host, token, method, path).
// `--jq` runs the real jq. Standard library only.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'

const env = process.env

/** The host gh talks to, and the token it sends there. */
function target() {
  const host = (env.GH_HOST || 'github.com').toLowerCase()
  const dotCom = host === 'github.com' || host.endsWith('.ghe.com')
  const token = dotCom
    ? env.GH_TOKEN || env.GITHUB_TOKEN
    : env.GH_ENTERPRISE_TOKEN || env.GITHUB_ENTERPRISE_TOKEN
  return { host, token: token || undefined }
}

function fail(message) {
  process.stderr.write(`${message}\n`)
  process.exit(1)
}

/** The options after the positional arguments: `--name value` (or `-X value`). */
function options(args) {
  const positional = []
  const named = {}
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? ''
    if (/^--?[A-Za-z]/.test(a)) named[a.replace(/^-+/, '')] = args[++i] ?? ''
    else positional.push(a)
  }
  return { positional, named }
}

async function request(method, path, body) {
  const { host, token } = target()
  const base = JSON.parse(env.SIM_GH_HOSTS || '{}')[host]
  if (env.SIM_GH_LOG)
    fs.appendFileSync(env.SIM_GH_LOG, `${JSON.stringify({ host, token, method, path })}\n`)
  if (!base) fail(`error connecting to ${host === 'github.com' ? 'api.github.com' : host}`)
  if (!token)
    fail(
      `To use GitHub CLI in a GitHub Actions workflow, set the ${host === 'github.com' ? 'GH_TOKEN' : 'GH_ENTERPRISE_TOKEN'} environment variable.`
    )
  const res = await send(new URL(`${base}/${path.replace(/^\//, '')}`), method, token, body)
  const text = res.text
  if (res.status >= 300) {
    let message = text
    try {
      message = JSON.parse(text).message ?? text
    } catch {
      // not JSON: the text as it came
    }
    fail(`gh: ${message} (HTTP ${res.status})`)
  }
  return text
}

/** One request over http (the simulators listen on loopback): its status and text. */
function send(url, method, token, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: {
          authorization: `token ${token}`,
          accept: 'application/vnd.github+json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {})
        }
      },
      res => {
        const chunks = []
        res.on('data', chunk => chunks.push(chunk))
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })
        )
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

async function api(args) {
  const { positional, named } = options(args)
  const body = named.input !== undefined ? fs.readFileSync(named.input, 'utf8') : undefined
  const method = (named.X ?? named.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase()
  const text = await request(method, positional[0] ?? '', body)
  if (named.jq === undefined) return void process.stdout.write(text)
  const jq = spawnSync('jq', ['-r', '-c', named.jq], { input: text, encoding: 'utf8' })
  if (jq.status !== 0) fail(`gh: jq failed: ${jq.stderr}`)
  process.stdout.write(jq.stdout)
}

async function prEdit(args) {
  const { positional, named } = options(args)
  const repo = named.repo ?? env.GH_REPO
  if (!repo || named['remove-label'] === undefined)
    fail('gh pr edit: only --repo R --remove-label L')
  const label = encodeURIComponent(named['remove-label'])
  await request('DELETE', `repos/${repo}/issues/${positional[0]}/labels/${label}`)
}

const [command, sub, ...rest] = process.argv.slice(2)
if (command === 'api') await api(sub === undefined ? rest : [sub, ...rest])
else if (command === 'pr' && sub === 'edit') await prEdit(rest)
else fail(`gh (simulator): ${command} ${sub ?? ''} is not simulated`)
