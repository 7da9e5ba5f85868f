// The attacks suites' leak detector: everything a run published (each log line and the log as a
// whole, every output, the summary, each comment) decoded as a reader, a copy or a log viewer
// could decode it (percent in either case, `\u` escapes, HTML entities, Markdown backslash
// escapes, invisible characters (every default-ignorable code point, format, private-use and
// unassigned code points, the braille blank, the object replacement), line breaks, base64 wrapped
// or not; full-width and other compatibility letters with their combining marks dropped; tag
// characters and variation selectors read as what they spell), then searched for any
// 12-character part of the key or the token. Written apart from src/secrets/search.ts, so the
// two are checked against each other.
import type { RunResult } from './runner.js'

// A key with characters that encoders treat differently (+/=:@$,;), and a token.
export const API_KEY = 'mint_Ab3+De/Fg=Hi:Jk@Lm$No,Pq;Rs_leak'
export const TOKEN = 'ghs_T0kenNeverLeavesTheRunner0123456'
/** A part this long of a secret, found anywhere, is a leak: a clip may leave one. */
export const PART = 12

export const pct = (s: string, lower: boolean): string =>
  Array.from(Buffer.from(s, 'utf8'))
    .map(b => `%${b.toString(16).padStart(2, '0')}`)
    .map(x => (lower ? x : x.toUpperCase()))
    .join('')

/** Every base64 run of `text` (white space inside it removed) decoded at each of its 4 offsets. */
function base64Decoded(text: string): string {
  const runs = text.replace(/\s+|\\n/g, '').match(/[A-Za-z0-9+/_-]{16,}/g) ?? []
  return runs
    .flatMap(run =>
      [0, 1, 2, 3].flatMap(offset => [
        Buffer.from(run.slice(offset), 'base64').toString('latin1'),
        Buffer.from(run.slice(offset), 'base64url').toString('latin1')
      ])
    )
    .join('\n')
}

/** What no reader sees between two letters: the test's own list, not the action's. */
const UNSEEN =
  /[\s\p{Cc}\p{Default_Ignorable_Code_Point}\p{Cf}\p{Co}\p{Cn}\u2800\ufffc\ufff9-\ufffb\u{13430}-\u{1343f}]/gu

/** Each letter in its compatibility form (full-width `ｍ` is `m`), accents and marks dropped. */
const plainLetters = (t: string): string =>
  t.normalize('NFKD').replace(/\p{M}/gu, '').replace(UNSEEN, '')

/** Tag characters as the ASCII they tag; variation selectors as the bytes they smuggle. */
function spelled(t: string): string {
  const tags = Array.from(t, c => {
    const code = c.codePointAt(0)!
    return code >= 0xe0020 && code <= 0xe007e ? String.fromCharCode(code - 0xe0000) : c
  }).join('')
  return tags.replace(/[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]+/gu, run =>
    Buffer.from(
      Array.from(run, c => {
        const code = c.codePointAt(0)!
        return code < 0xe0100 ? code - 0xfe00 : code - 0xe0100 + 16
      })
    ).toString('latin1')
  )
}

/** Everything decoded that a reader, a copy or a log viewer could decode. */
export function decodings(text: string): string[] {
  const entities = (t: string) =>
    t
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
      .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
      .replace(/&amp;/g, '&')
  const unicode = (t: string) =>
    t.replace(/\\u([0-9a-f]{4})/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)))
  const markdown = (t: string) => t.replace(/\\([!-/:-@[-`{-~])/g, '$1')
  const percent = (t: string) => {
    try {
      return decodeURIComponent(t.replace(/%(?![0-9a-f]{2})/gi, '%25'))
    } catch {
      return t
    }
  }
  const invisible = (t: string) => t.replace(/\p{Default_Ignorable_Code_Point}/gu, '')
  const joined = (t: string) => t.replace(/\r?\n|\\n/g, '')
  const all = invisible(joined(percent(markdown(markdown(unicode(entities(text)))))))
  return [
    text,
    entities(text),
    unicode(text),
    markdown(text),
    percent(text),
    invisible(text),
    all,
    plainLetters(all),
    plainLetters(spelled(percent(markdown(unicode(entities(text)))))),
    base64Decoded(text)
  ]
}

/** Whether `text`, decoded, holds any PART characters of `secret`. */
export function holdsPart(text: string, secret: string): boolean {
  const parts = Array.from({ length: secret.length - PART + 1 }, (_, i) =>
    secret.slice(i, i + PART)
  )
  return decodings(text).some(d => parts.some(part => d.includes(part)))
}

/** Every place a secret, or a long part of one, shows once decoded: "where: which". */
export function leaks(r: RunResult, comments: string[]): string[] {
  const found: string[] = []
  const look = (where: string, text: string) => {
    for (const [name, secret] of [
      ['api key', API_KEY],
      ['token', TOKEN]
    ] as const)
      if (holdsPart(text, secret)) found.push(`${where}: ${name}`)
  }
  const lines = r.stdout.split(/\r?\n/).filter(l => !l.startsWith('::add-mask::'))
  // Each log line alone, and the log as a whole (a secret split across two lines).
  lines.forEach((line, i) => look(`log line ${i + 1}`, line))
  look('log', lines.join('\n'))
  look('stderr', r.stderr)
  for (const [name, value] of Object.entries(r.outputs)) look(`output ${name}`, value)
  look('summary', r.summary)
  comments.forEach((body, i) => look(`comment ${i + 1}`, body))
  return [...new Set(found)]
}

/** The inputs every attack scenario starts from (the attacks' key, quick polls), plus `extra`. */
export const attackInputs = (
  url: string,
  extra: Record<string, string> = {}
): Record<string, string> => ({
  'api-key': API_KEY,
  'project-id': 'proj-1',
  'base-url': url,
  'poll-interval': '0.2',
  'wait-timeout': '20s',
  ...extra
})
