// A reader of the YAML the recipes are written in, so a test can take a workflow's `on:`,
// `permissions:`, `env:`, jobs and steps as GitHub reads them: block mappings and sequences,
// block scalars (`|`, `|-`, `>`, `>-`), one-line flow sequences (`[closed]`), `{}`, quoted and
// plain scalars, comments. Every scalar stays a string (inputs are strings to an action). It
// knows only what the recipes use and throws on anything else (an anchor, a flow mapping, a
// plain scalar over several lines), so a recipe that outgrows it fails its test instead of being
// read wrongly. No dependency: the project's tests take none for this.

export type Yaml = string | null | Yaml[] | { [key: string]: Yaml }

interface Line {
  indent: number
  text: string
  /** 1-based, for messages. */
  number: number
}

export function readYaml(source: string): Yaml {
  const raw = source.replace(/\r\n?/g, '\n').split('\n')
  const reader = new Reader(raw)
  const value = reader.block(0)
  reader.expectEnd()
  return value
}

class Reader {
  private at = 0

  constructor(private readonly raw: string[]) {}

  /** The next line that holds something (not blank, not a comment), without taking it. */
  private peek(): Line | undefined {
    while (this.at < this.raw.length) {
      const text = this.raw[this.at] ?? ''
      if (text.trim() === '' || /^\s*#/.test(text)) {
        this.at++
        continue
      }
      if (/^\s*\t/.test(text)) throw this.error('a tab in indentation')
      return { indent: /^ */.exec(text)![0].length, text: text.trim(), number: this.at + 1 }
    }
    return undefined
  }

  private error(what: string, line = this.at + 1): Error {
    return new Error(`workflow-yaml: ${what} at line ${line}`)
  }

  expectEnd(): void {
    const left = this.peek()
    if (left) throw this.error(`unexpected indentation (${left.text})`, left.number)
  }

  /** The block (mapping or sequence) whose lines are indented `indent` or more. */
  block(indent: number): Yaml {
    const first = this.peek()
    if (!first || first.indent < indent) return null
    return first.text === '-' || first.text.startsWith('- ')
      ? this.sequence(first.indent)
      : this.mapping(first.indent)
  }

  private sequence(indent: number): Yaml[] {
    const items: Yaml[] = []
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      if (!(line.text === '-' || line.text.startsWith('- '))) break
      const rest = line.text.slice(1).trimStart()
      if (rest === '') {
        this.at++
        items.push(this.block(indent + 1))
      } else if (/^[^'"[{][^:]*:(\s|$)/.test(rest)) {
        // `- key: value`: a mapping whose keys sit two columns further in.
        this.raw[this.at] = `${' '.repeat(indent + 2)}${rest}`
        items.push(this.mapping(indent + 2))
      } else {
        this.at++
        items.push(this.scalar(rest, indent, line.number))
      }
    }
    return items
  }

  private mapping(indent: number): { [key: string]: Yaml } {
    const map: { [key: string]: Yaml } = {}
    for (let line = this.peek(); line && line.indent === indent; line = this.peek()) {
      const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^'"\s#][^:]*?):(?:\s+(.*))?$/.exec(line.text)
      if (!m) throw this.error(`not a mapping entry: ${line.text}`, line.number)
      const key = unquote(m[1] ?? '')
      if (Object.hasOwn(map, key)) throw this.error(`key ${key} twice`, line.number)
      this.at++
      const value = stripComment(m[2] ?? '')
      map[key] = value === '' ? this.block(indent + 1) : this.scalar(value, indent, line.number)
    }
    return map
  }

  /** A value on its key's line: a block scalar's header, a flow sequence, `{}` or a scalar. */
  private scalar(text: string, indent: number, number: number): Yaml {
    const header = /^([|>])([+-]?)$/.exec(text)
    if (header) return this.blockScalar(header[1] === '>', header[2] ?? '', indent)
    if (text === '{}') return {}
    if (text.startsWith('{') || /^[&*!]/.test(text))
      throw this.error(`unsupported: ${text}`, number)
    if (text.startsWith('[')) {
      if (!text.endsWith(']')) throw this.error(`a flow sequence over lines: ${text}`, number)
      const inner = text.slice(1, -1).trim()
      return inner === '' ? [] : inner.split(',').map(part => unquote(part.trim()))
    }
    const next = this.peek()
    if (next && next.indent > indent && !/^['"]/.test(text))
      throw this.error(`a plain scalar over several lines: ${text}`, next.number)
    return unquote(text)
  }

  /** The lines of a block scalar, more indented than its key, as literal or folded text. */
  private blockScalar(folded: boolean, chomp: string, indent: number): string {
    const lines: string[] = []
    let own: number | undefined
    while (this.at < this.raw.length) {
      const text = this.raw[this.at] ?? ''
      const width = /^ */.exec(text)![0].length
      if (text.trim() !== '') {
        own ??= width
        if (width <= indent || width < own) break
      }
      lines.push(text.trim() === '' ? '' : text.slice(own))
      this.at++
    }
    while (lines.length > 0 && lines.at(-1) === '') lines.pop()
    const body = folded ? fold(lines) : lines.join('\n')
    return chomp === '-' ? body : `${body}\n`
  }
}

/** Folded lines: each line break a space, a blank line a line break. */
function fold(lines: string[]): string {
  return lines.reduce((text, line, i) => {
    if (i === 0) return line
    if (line === '') return `${text}\n`
    return text.endsWith('\n') ? text + line : `${text} ${line}`
  }, '')
}

/** A plain value without the comment after it (` # …`); quoted ones keep theirs. */
function stripComment(text: string): string {
  if (/^['"]/.test(text)) {
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*')\s*(?:#.*)?$/.exec(text)
    if (!m) throw new Error(`workflow-yaml: text after a quoted scalar: ${text}`)
    return m[1] ?? ''
  }
  return text.replace(/\s+#.*$/, '').trim()
}

function unquote(text: string): string {
  if (text.startsWith("'") && text.endsWith("'") && text.length >= 2)
    return text.slice(1, -1).replace(/''/g, "'")
  if (text.startsWith('"') && text.endsWith('"') && text.length >= 2)
    return JSON.parse(text) as string
  return text
}
