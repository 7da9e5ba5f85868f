// A CSV reader for the tests, in two modes. Strict: RFC 4180 with `,`, CRLF after every record,
// line breaks only inside quotes, a quote only at a field's start (a file that breaks a rule
// throws). Lenient, with any delimiter: as a spreadsheet reads, honouring double quotes, any line
// break ending a row, text after a closing quote joining the field.

export function readCsv(text: string, delimiter = ',', strict = false): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let atStart = true
  const endField = (): void => {
    record.push(field)
    field = ''
    atStart = true
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c !== '"') field += c
      else if (text[i + 1] === '"') {
        field += '"'
        i++
      } else quoted = false
    } else if (c === '"' && (atStart || strict)) {
      if (!atStart) throw new Error(`quote inside an unquoted field at ${i}`)
      quoted = true
      atStart = false
    } else if (c === delimiter) endField()
    else if (c === '\r' || c === '\n') {
      const crlf = c === '\r' && text[i + 1] === '\n'
      if (strict && !crlf) throw new Error(`bare line break outside quotes at ${i}`)
      if (crlf) i++
      endField()
      records.push(record)
      record = []
    } else {
      field += c
      atStart = false
    }
  }
  if (strict && (quoted || field !== '' || record.length > 0))
    throw new Error('the last record is not ended')
  if (field !== '' || record.length > 0) records.push([...record, field])
  return records
}
