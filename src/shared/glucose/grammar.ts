/**
 * The GLUCOSE cell grammar (FORMATS §1.2). Parsers never throw and never alter text: halves and
 * slot texts are verbatim slices of the cell; a cell that does not fit gives null.
 */

import { type Connector, CONNECTORS, dimensionInfo, isConnector } from './dimensions'
import { AnnotationFlag } from './flags'
import { splitReferences } from './references'

const KNOWN: ReadonlySet<string> = new Set(CONNECTORS)
const CLAUSE = /\|\|(.*?)\|\|/g

export interface ParsedNL {
  left: string
  /** Without the `>` marks, e.g. `Causes/Enables`; possibly not a GLUCOSE connector. */
  connector: string
  /** Everything after the first connector, further connectors included. */
  right: string
  /** Connectors after the first one (a dirty cell can hold two). */
  extraConnectors: number
}

export interface Slot {
  /** The text between the braces, verbatim. */
  raw: string
  /** `raw` without its attribute clause(s), verbatim (trailing spaces kept). */
  text: string
  tag: string
  /** The first `||…||` attribute clause, without the bars. */
  clause?: string
}

export interface ParsedStructured {
  left: Slot[]
  connector: string
  /** Slots after the first connector (also after any extra connector). */
  right: Slot[]
  extraConnectors: number
  /** The statement as NL would write it: slot texts with `||x||`→`(x)`, joined by spaces. */
  asNL: string
}

/**
 * `<left> ><Connector>> <right>`; one space on each side of the connector is part of it. The
 * split is at the first GLUCOSE connector, else at the first `>…>`. Scans with indexOf: this
 * runs for every cell of an import.
 */
export function parseNL(cell: string): ParsedNL | null {
  let start = -1
  let end = -1
  let count = 0
  for (let i = cell.indexOf('>'); i !== -1;) {
    const j = cell.indexOf('>', i + 1)
    if (j === -1) break
    if (KNOWN.has(cell.slice(i + 1, j))) {
      if (count++ === 0) {
        start = i
        end = j
      }
      i = cell.indexOf('>', j + 1)
    } else i = j
  }
  if (count === 0) {
    // No GLUCOSE connector: take the first `>…>` as an unknown one (FORMATS: `>[^>]+>`).
    for (let i = cell.indexOf('>'); i !== -1 && start === -1;) {
      const j = cell.indexOf('>', i + 1)
      if (j === -1) break
      if (j > i + 1) {
        start = i
        end = j
        count = 1
      } else i = j
    }
    if (count === 0) return null
  }
  let left = cell.slice(0, start)
  let right = cell.slice(end + 1)
  if (left.endsWith(' ')) left = left.slice(0, -1)
  if (right.startsWith(' ')) right = right.slice(1)
  if (left.trim() === '' || right.trim() === '') return null
  return { left, connector: cell.slice(start + 1, end), right, extraConnectors: count - 1 }
}

/**
 * Slot tokens `{text}_[tag]` separated by whitespace, with a `>Connector>` between the halves:
 * the token grammar of FORMATS (`\{([^{}]*)\}_\[([a-z0-9]+)\]`, `>[^>]+>`), scanned by hand.
 */
export function parseStructured(cell: string): ParsedStructured | null {
  const left: Slot[] = []
  const right: Slot[] = []
  const scanned = scanStructured(cell, left, right)
  return scanned === null ? null : { left, right, ...scanned }
}

interface StructuredScan {
  connector: string
  extraConnectors: number
  asNL: string
}

/** The scanner behind `parseStructured`; without slot lists it only checks and rebuilds NL. */
function scanStructured(
  cell: string,
  left: Slot[] | null,
  right: Slot[] | null,
): StructuredScan | null {
  const nl: string[] = []
  let connector: string | null = null
  let extraConnectors = 0
  let leftSlots = 0
  let rightSlots = 0
  const n = cell.length
  let pos = 0
  for (;;) {
    while (pos < n && isSpace(cell, pos)) pos++
    if (pos >= n) break
    const c = cell.charCodeAt(pos)
    if (c === 123 /* { */) {
      const close = cell.indexOf('}', pos + 1)
      if (close === -1 || cell.charCodeAt(close + 1) !== 95 || cell.charCodeAt(close + 2) !== 91) {
        return null
      }
      const raw = cell.slice(pos + 1, close)
      const tagEnd = cell.indexOf(']', close + 3)
      if (raw.includes('{') || tagEnd === -1) return null
      const tag = cell.slice(close + 3, tagEnd)
      if (!isTag(tag)) return null
      if (connector === null) {
        leftSlots++
        left?.push(toSlot(raw, tag))
      } else {
        rightSlots++
        right?.push(toSlot(raw, tag))
      }
      nl.push(slotAsNL(raw))
      pos = tagEnd + 1
    } else if (c === 62 /* > */) {
      const close = cell.indexOf('>', pos + 1)
      if (close === -1 || close === pos + 1) return null
      if (connector === null) connector = cell.slice(pos + 1, close)
      else extraConnectors++
      nl.push(cell.slice(pos, close + 1))
      pos = close + 1
    } else return null
  }
  if (connector === null || leftSlots === 0 || rightSlots === 0) return null
  return { connector, extraConnectors, asNL: nl.join(' ') }
}

/** `[a-z0-9]+` without a regex call per slot. */
function isTag(tag: string): boolean {
  if (tag.length === 0) return false
  for (let i = 0; i < tag.length; i++) {
    const c = tag.charCodeAt(i)
    if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57))) return false
  }
  return true
}

function isSpace(s: string, i: number): boolean {
  const c = s.charCodeAt(i)
  if (c === 32 || (c >= 9 && c <= 13)) return true
  return c > 127 && /\s/.test(s.charAt(i))
}

function toSlot(raw: string, tag: string): Slot {
  if (!raw.includes('||')) return { raw, text: raw, tag }
  CLAUSE.lastIndex = 0
  const m = CLAUSE.exec(raw)
  if (m === null) return { raw, text: raw, tag }
  return { raw, text: raw.replace(CLAUSE, ''), tag, clause: m[1] ?? '' }
}

/** A slot's text as NL shows it: `Somewhere_A ||that is a school||` → `Somewhere_A (that is a school)`. */
export function slotAsNL(raw: string): string {
  return raw.includes('||') ? raw.replace(CLAUSE, '($1)') : raw
}

/** Collapses whitespace runs and trims: how NL and Structured are compared. */
export function normalizeSpaces(s: string): string {
  return s.replace(/\s+/g, ' ').trim()
}

const LOST_UNDERSCORE = /\b(Someone|Something|Somewhere|Some People) ([A-D])\b/gi

/** Restores `Something A` → `Something_A` (an export artefact inside attribute clauses). */
function restoreVariableUnderscores(s: string): string {
  return s.replace(LOST_UNDERSCORE, '$1_$2')
}

export interface AnnotationCells {
  specificNL: string
  specificStructured: string | null
  generalNL: string
  generalStructured: string | null
}

/**
 * The problems of one filled dimension as `AnnotationFlag` bits. With `references`, NL cells are
 * test-set cells: `****`-joined references, each checked on its own.
 */
export function annotationFlags(
  dimension: number,
  cells: AnnotationCells,
  opts: { references?: boolean } = {},
): number {
  if (!opts.references) {
    const plain = plainStructured(dimensionInfo(dimension).connector)
    if (
      isPlainPair(plain, cells.specificNL, cells.specificStructured) &&
      isPlainPair(plain, cells.generalNL, cells.generalStructured)
    ) {
      return 0
    }
  }
  return flagsByGrammar(dimension, cells, opts)
}

/**
 * `annotationFlags` without its shortcut for plain cells: every cell parsed and compared. Exported
 * so that tests can hold the shortcut to it.
 */
export function flagsByGrammar(
  dimension: number,
  cells: AnnotationCells,
  opts: { references?: boolean } = {},
): number {
  const all = [cells.specificNL, cells.specificStructured, cells.generalNL, cells.generalStructured]
  if (all.includes(HIDDEN)) return AnnotationFlag.Hidden
  const expected = dimensionInfo(dimension).connector
  let flags = all.includes(ESCAPED) ? AnnotationFlag.PartlyEscaped : 0
  for (const [nl, structured] of [
    [cells.specificNL, cells.specificStructured],
    [cells.generalNL, cells.generalStructured],
  ] as const) {
    if (nl === ESCAPED) continue
    if (opts.references) {
      const refs = splitReferences(nl)
      if (refs.length !== 3) flags |= AnnotationFlag.ReferenceCount
      for (const ref of refs) {
        if (ref.trim() === '') flags |= AnnotationFlag.EmptyReference
        else flags |= connectorFlags(parseNL(ref), AnnotationFlag.NlUnparsed, expected)
      }
      continue
    }
    const parsedNL = parseNL(nl)
    flags |= connectorFlags(parsedNL, AnnotationFlag.NlUnparsed, expected)
    if (structured === null || structured === ESCAPED) continue
    const parsed = scanStructured(structured, null, null)
    flags |= connectorFlags(parsed, AnnotationFlag.StructuredUnparsed, expected)
    if (parsedNL !== null && parsed !== null) flags |= agreement(nl, parsed.asNL)
  }
  return flags
}

/** The cell text of a dimension a worker left empty. */
export const ESCAPED = 'escaped'
/** The cell text of a filled answer the test set without answers hides. */
export const HIDDEN = 'answered'

function connectorFlags(
  parsed: { connector: string; extraConnectors: number } | null,
  unparsed: number,
  expected: Connector,
): number {
  if (parsed === null) return unparsed
  let flags = parsed.extraConnectors > 0 ? AnnotationFlag.ExtraConnector : 0
  if (!isConnector(parsed.connector)) flags |= AnnotationFlag.UnknownConnector
  else if (parsed.connector !== expected) flags |= AnnotationFlag.ConnectorMismatch
  return flags
}

function agreement(nl: string, structuredAsNL: string): number {
  if (nl === structuredAsNL) return 0
  // Case is ignored: `someone_B` in a slot against `Someone_B` in NL says the same thing.
  const a = normalizeSpaces(nl).toLowerCase()
  const b = normalizeSpaces(structuredAsNL).toLowerCase()
  if (a === b) return 0
  if (restoreVariableUnderscores(a) === restoreVariableUnderscores(b)) {
    return AnnotationFlag.UnderscoreLost
  }
  return AnnotationFlag.NlStructuredDisagree
}

/*
 * The shortcut. Most released cells are plain: slots separated by single spaces, the dimension's
 * connector once, no `>` or stray `|` in slot texts, and an NL cell that is exactly the slots'
 * texts with `||x||` written `(x)`. For such a pair the grammar finds nothing, and one compiled
 * regular expression plus one pass over the two strings shows it faster than the scanner (the
 * grammar was most of an import's reading thread). Anything else goes through the grammar.
 */

/** A slot text: no braces, no `>`, bars only as `||clause||`. */
const PLAIN_TEXT = String.raw`[^{}>|]*(?:\|\|[^{}>|]*\|\|[^{}>|]*)*`
const PLAIN_SLOT = String.raw`\{${PLAIN_TEXT}\}_\[[a-z0-9]+\]`
/** A half's first slot starts with a visible character, so neither NL half is blank. */
const PLAIN_FIRST_SLOT = String.raw`\{(?=[^\s{}>|])${PLAIN_TEXT}\}_\[[a-z0-9]+\]`
const PLAIN_HALF = `${PLAIN_FIRST_SLOT}(?: ${PLAIN_SLOT})*`
const plainPatterns = new Map<Connector, RegExp>()

function plainStructured(connector: Connector): RegExp {
  let pattern = plainPatterns.get(connector)
  if (pattern === undefined) {
    pattern = new RegExp(`^${PLAIN_HALF} >${connector}> ${PLAIN_HALF}$`)
    plainPatterns.set(connector, pattern)
  }
  return pattern
}

function isPlainPair(plain: RegExp, nl: string, structured: string | null): boolean {
  return structured !== null && plain.test(structured) && saysPlainly(structured, nl)
}

/**
 * Whether `nl` is the plain Structured cell `structured` as NL writes it: braces and `_[tag]`
 * dropped, `||` written `(` then `)`, everything else the same, character for character.
 */
function saysPlainly(structured: string, nl: string): boolean {
  const n = structured.length
  let j = 0
  let inClause = false
  for (let i = 0; i < n;) {
    const c = structured.charCodeAt(i)
    if (c === 123 /* { */) {
      i++
    } else if (c === 125 /* } */) {
      i = structured.indexOf(']', i + 3) + 1
    } else if (c === 124 /* | */) {
      if (nl.charCodeAt(j) !== (inClause ? 41 /* ) */ : 40) /* ( */) return false
      inClause = !inClause
      i += 2
      j++
    } else {
      if (nl.charCodeAt(j) !== c) return false
      i++
      j++
    }
  }
  return j === nl.length
}
