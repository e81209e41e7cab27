/**
 * Reads `Assignment.Answer` (QuestionFormAnswers XML, FORMATS §3.6) into flat string fields. A bad
 * answer is reported, never thrown, so the caller keeps the raw text and flags the submission.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser'

export type ParsedAnswer =
  { ok: true; fields: Record<string, string> } | { ok: false; error: string }

export interface ParseAnswerOptions {
  /**
   * HTMLQuestion/ExternalQuestion posts arrive HTML-escaped and are unescaped once after XML
   * decoding; QuestionForm answers are not (see `isHtmlEscapedQuestion`). Default true.
   */
  htmlEscaped?: boolean
  /**
   * Read MTurk's own plain layout by a single scan (default true); off, every answer goes through
   * the XML library (the equivalence tests compare the two).
   */
  fastPath?: boolean
}

/** Form fields MTurk or the worker's browser add that are not answers. */
const NOT_ANSWERS = new Set(['assignmentId', 'doNotRedirect'])

// Entities are decoded by us, not the parser: its expansion limit (1,000 per document) would
// reject long answers full of `&amp;`, and numeric references are needed anyway.
const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: false,
  ignoreDeclaration: true,
  cdataPropName: '#cdata',
  jPath: false, // callbacks get a matcher instead of a path string built for every tag
  isArray: (name) => name === 'Answer' || name === 'SelectionIdentifier',
})

/** True unless the HIT's Question is a QuestionForm (whose FreeText is not HTML-escaped). */
export function isHtmlEscapedQuestion(question: string | undefined): boolean {
  return !/<QuestionForm[\s>]/.test(question ?? '')
}

export function parseAnswer(
  xml: string | null | undefined,
  options: ParseAnswerOptions = {},
): ParsedAnswer {
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  if (xml === null || xml === undefined || xml.trim() === '') return { ok: true, fields }
  const unescape = options.htmlEscaped ?? true
  if (options.fastPath ?? true) {
    const fast = scanPlainAnswers(xml, unescape)
    if (fast) return fast
  }
  const valid = XMLValidator.validate(xml)
  if (valid !== true) {
    return { ok: false, error: `Not well-formed XML (line ${valid.err.line}): ${valid.err.msg}` }
  }
  const root = (parser.parse(xml) as Record<string, unknown>).QuestionFormAnswers
  if (root === undefined) return { ok: false, error: 'No QuestionFormAnswers element' }
  const answers = typeof root === 'object' && root !== null ? (root as Node).Answer : undefined
  for (const answer of answers ?? []) {
    if (typeof answer !== 'object') continue // `<Answer/>`: nothing was posted
    const id = text(answer.QuestionIdentifier).trim()
    if (id === '') return { ok: false, error: 'An Answer without a QuestionIdentifier' }
    if (id === 'taskAnswers' && answer.FreeText !== undefined) {
      const flat = flattenTaskAnswers(text(answer.FreeText))
      if (!flat.ok) return flat
      Object.assign(fields, flat.fields)
      continue
    }
    for (const [key, value] of Object.entries(answerValues(id, answer, unescape))) {
      // A field posted twice (checkbox groups) keeps every value.
      fields[key] = key in fields ? `${fields[key]}|${value}` : value
    }
  }
  for (const name of NOT_ANSWERS) delete fields[name]
  return { ok: true, fields }
}

/**
 * The layout MTurk writes for HTMLQuestion and crowd-form posts (FORMATS §3.6): a declaration,
 * `QuestionFormAnswers` with its default namespace, and `Answer`s of a `QuestionIdentifier` and a
 * `FreeText` holding plain text (the five XML entities and character references only). Validating
 * and parsing that with the XML library was most of a pull's CPU; a
 * document made only of these parts is read here in one scan, and anything else (selections,
 * uploads, prefixes, CDATA, comments, malformed markup) returns null for the full parser, which
 * also says what is wrong.
 */
const PLAIN_DOC =
  /^\s*(?:<\?xml[^<>?]*\?>\s*)?<QuestionFormAnswers(?:\s+xmlns="[^"<&]*")?\s*>([^]*)<\/QuestionFormAnswers>\s*$/
const PLAIN_ANSWER =
  /\s*<Answer>\s*<QuestionIdentifier>([^<]*)<\/QuestionIdentifier>\s*<FreeText>([^<]*)<\/FreeText>\s*<\/Answer>/y
const PLAIN_TEXT = /^(?:[^&\]]|&(?:#[0-9]+|#x[0-9a-fA-F]+|amp|lt|gt|quot|apos);|\](?!\]>))*$/
const TRAILING_SPACE = /\s*$/y

export function scanPlainAnswers(xml: string, unescape: boolean): ParsedAnswer | null {
  const body = PLAIN_DOC.exec(xml)?.[1]
  if (body === undefined) return null
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  PLAIN_ANSWER.lastIndex = 0
  let at = 0
  while (at < body.length) {
    PLAIN_ANSWER.lastIndex = at
    const m = PLAIN_ANSWER.exec(body)
    if (!m) break
    at = PLAIN_ANSWER.lastIndex
    const [, rawId = '', rawText = ''] = m
    if (!PLAIN_TEXT.test(rawId) || !PLAIN_TEXT.test(rawText)) return null
    const id = xmlDecode(rawId).trim()
    if (id === '') return null
    if (id === 'taskAnswers') {
      const flat = flattenTaskAnswers(xmlDecode(rawText))
      if (!flat.ok) return flat
      Object.assign(fields, flat.fields)
      continue
    }
    const value = unescape ? htmlUnescape(xmlDecode(rawText)) : xmlDecode(rawText)
    fields[id] = id in fields ? `${fields[id]}|${value}` : value
  }
  TRAILING_SPACE.lastIndex = at
  if (TRAILING_SPACE.exec(body)?.[0].length !== body.length - at) return null
  for (const name of NOT_ANSWERS) delete fields[name]
  return { ok: true, fields }
}

type Node = { [key: string]: unknown; Answer?: (AnswerNode | string)[] }
type AnswerNode = Record<string, unknown> & { SelectionIdentifier?: unknown[] }

/** One answer's values: FreeText, selections (joined by `|`, other text under `.other`), uploads. */
function answerValues(id: string, a: AnswerNode, unescape: boolean): Record<string, string> {
  if (a.FreeText !== undefined) {
    const value = text(a.FreeText)
    return { [id]: unescape ? htmlUnescape(value) : value }
  }
  if (a.UploadedFileKey !== undefined) {
    return { [id]: text(a.UploadedFileKey), [`${id}.bytes`]: text(a.UploadedFileSizeInBytes) }
  }
  const out: Record<string, string> = { [id]: (a.SelectionIdentifier ?? []).map(text).join('|') }
  if (a.OtherSelectionText !== undefined) out[`${id}.other`] = text(a.OtherSelectionText)
  return out
}

/** Element text with XML entities decoded; CDATA sections are taken as they are. */
function text(node: unknown): string {
  if (typeof node === 'string') return xmlDecode(node)
  if (typeof node !== 'object' || node === null) return ''
  const n = node as Record<string, unknown>
  const plain = typeof n['#text'] === 'string' ? xmlDecode(n['#text']) : ''
  const cdata = ([] as unknown[]).concat(n['#cdata'] ?? [])
  return plain + cdata.filter((c) => typeof c === 'string').join('')
}

const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }
const HTML_ENTITIES: Record<string, string> = { ...XML_ENTITIES, nbsp: '\u00a0' }

/**
 * Replaces `&name;`, `&#n;` and `&#xh;` by what they stand for; anything else stays as written.
 * A scan from `&` to `;` rather than a regular expression with a callback: answers are full of
 * entities (every quote of a taskAnswers blob), and decoding was a fifth of a pull's parsing.
 */
function decodeWith(table: Record<string, string>, s: string): string {
  let at = s.indexOf('&')
  if (at < 0) return s
  let out = ''
  let from = 0
  while (at >= 0) {
    const end = s.indexOf(';', at + 2)
    if (end < 0) break
    const value = entityValue(table, s, at + 1, end)
    if (value !== undefined) {
      out += s.slice(from, at) + value
      from = end + 1
    }
    at = s.indexOf('&', value === undefined ? at + 1 : from)
  }
  return from === 0 ? s : out + s.slice(from)
}

/** The text of the entity named by `s[start, end)`, or undefined when it is not one. */
function entityValue(
  table: Record<string, string>,
  s: string,
  start: number,
  end: number,
): string | undefined {
  if (s.charCodeAt(start) !== 0x23 /* # */) {
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i) | 0x20
      if (c < 0x61 || c > 0x7a) return undefined
    }
    const name = s.slice(start, end)
    return Object.hasOwn(table, name) ? table[name] : undefined
  }
  const hex = (s.charCodeAt(start + 1) | 0x20) === 0x78 /* x */
  const digits = hex ? start + 2 : start + 1
  if (digits === end) return undefined
  for (let i = digits; i < end; i++) {
    const c = s.charCodeAt(i)
    const ok = (c >= 0x30 && c <= 0x39) || (hex && (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)
    if (!ok) return undefined
  }
  const code = parseInt(s.slice(digits, end), hex ? 16 : 10)
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : s.slice(start - 1, end + 1)
}

export const xmlDecode = (s: string): string => decodeWith(XML_ENTITIES, s)

/** One level of HTML unescaping: `&amp;gt;` stays `&gt;`; unknown names are left as written. */
export const htmlUnescape = (s: string): string => decodeWith(HTML_ENTITIES, s)

/**
 * A crowd-form `taskAnswers` value: a JSON array (usually of one object) → flat fields. Nested
 * widget values become dot paths (`box.left`), except the common one-key wrappers
 * `{label: …}` and `{on: …}`, which collapse onto their field.
 */
export function flattenTaskAnswers(json: string): ParsedAnswer {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch {
    try {
      value = JSON.parse(htmlUnescape(json)) // some forms escape the whole blob
    } catch {
      return { ok: false, error: 'taskAnswers is not JSON' }
    }
  }
  const items = Array.isArray(value) ? value : [value]
  const fields: Record<string, string> = Object.create(null) as Record<string, string>
  items.forEach((item, i) => flatten(item, items.length === 1 ? '' : String(i), fields))
  for (const name of NOT_ANSWERS) delete fields[name]
  return { ok: true, fields }
}

function flatten(value: unknown, key: string, out: Record<string, string>): void {
  const at = (k: string): string => (key === '' ? k : `${key}.${k}`)
  if (value === null || value === undefined) out[key] = ''
  else if (typeof value === 'string') out[key] = value
  else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value)
  else if (typeof value !== 'object') out[key] = ''
  else if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== 'object')) {
      out[key] = value.map((v) => (v === null ? '' : String(v))).join('|')
    } else value.forEach((v, i) => flatten(v, at(String(i)), out))
  } else {
    const entries = Object.entries(value)
    const only = entries.length === 1 ? entries[0] : undefined
    if (only && key !== '' && (only[0] === 'label' || only[0] === 'on')) flatten(only[1], key, out)
    else for (const [k, v] of entries) flatten(v, at(k), out)
  }
}
