import { readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, extname, join, relative } from 'node:path'
import { type JsonDocument, parseJson } from './json'
import { type CrowdaqProblem, type JsonPath, formatPath } from './problems'
import type { ItemKind } from './validate'
import { isRecord } from '../../../../shared/crowdaq/record'
import { formatBytes } from '../../../../shared/text'
import {
  ZIP_LIMITS,
  type ZipBudget,
  type ZipLimits,
  ZipRefusal,
  readZip,
  zipBudget,
} from '../../../importers/zip'

/**
 * Finds the CROWDAQ items in what the user picked: a JSON file (one item, an array of items, an
 * API list page `{payload: […]}`), a Markdown instruction, an attempts CSV, a zip of any of these,
 * or a desktop-client export folder. Each item keeps the document and JSON path it came from so a
 * problem can name its file, line and column.
 */

export interface FoundItem {
  kind: ItemKind
  value: unknown
  doc: JsonDocument
  path: JsonPath
}

interface FoundInstruction {
  id: string
  markdown: string
  file: string
}

interface FoundCsv {
  file: string
  text: string
}

export interface Found {
  items: FoundItem[]
  instructions: FoundInstruction[]
  csv: FoundCsv[]
  problems: CrowdaqProblem[]
}

/**
 * An exam folder of a desktop export: its `examConfig.json` names the exam and holds its settings,
 * which its questions pages (`{question_set, meta}`) leave out.
 */
interface ExamFolder {
  examId: string
  settings: Record<string, unknown>
}

/** The exam settings of a CROWDAQ exam config row, as an exam JSON names them. */
const EXAM_SETTINGS = [
  'num_of_questions',
  'max_attempts',
  'passing_grade',
  'time_limit_in_seconds',
  'instruction_id',
  'tutorial_id',
  'qualification_id',
] as const

/** What an object is, by the fields only that kind has; null when it is none of them. */
function kindOf(v: Record<string, unknown>): ItemKind | null {
  if ('response_payload' in v || 'assignment_payload' in v) return 'examAttempt'
  if ('annotation_groups' in v) return 'task'
  if ('worker_id' in v && 'annotation_task_id' in v && 'response' in v) return 'taskAssignment'
  if ('question_set' in v && 'exam_id' in v) return 'exam'
  if ('question_set' in v && 'tutorial_id' in v) return 'tutorial'
  return null
}

/** Desktop-export files that describe the export rather than hold items. */
const SKIPPED = /^(status|tasksetConfig|examConfig)\.json$|^hits-.*\.json$/

/** Where the files are read into, and what is left of the zip budget. */
interface Reading {
  found: Found
  zip: ZipBudget
}

/** `limits` bounds what zips hold once unzipped, and the size of a file read whole. */
export function findItems(path: string, limits: ZipLimits = ZIP_LIMITS): Found {
  const found: Found = { items: [], instructions: [], csv: [], problems: [] }
  const reading = { found, zip: zipBudget(limits) }
  const stat = statSync(path)
  if (stat.isDirectory()) readFolder(path, path, reading)
  else readFile(basename(path), path, stat.size, reading)
  return found
}

/**
 * A file is read whole: one larger than an entry may be (a zip: than all its entries may be) is
 * refused by its size, before it is read.
 */
function readFile(
  file: string,
  path: string,
  size: number,
  reading: Reading,
  exam?: ExamFolder,
): void {
  const zip = extname(file).toLowerCase() === '.zip'
  const limit = zip ? reading.zip.limits.totalBytes : reading.zip.limits.entryBytes
  if (size > limit) {
    reading.found.problems.push({
      file,
      line: 0,
      column: 0,
      path: '',
      message: `the file is ${formatBytes(size)}; Winnow reads ${zip ? 'zips' : 'CROWDAQ files'} of up to ${formatBytes(limit)}`,
    })
    return
  }
  readEntry(file, readFileSync(path), reading, 0, exam)
}

function readFolder(root: string, dir: string, reading: Reading, outer?: ExamFolder): void {
  const { found } = reading
  const names = readdirSync(dir).sort()
  const exam = names.includes('examConfig.json')
    ? examFolder(root, join(dir, 'examConfig.json'), dir, found)
    : outer
  for (const name of names) {
    const full = join(dir, name)
    const stat = statSync(full)
    if (stat.isDirectory()) {
      if (name !== 'hits') readFolder(root, full, reading, exam)
      continue
    }
    if (SKIPPED.test(name)) continue
    // A task set's rows repeat the definitions of tasks-sharable/ as strings: read one of them.
    if (/^annotation_task-\d+-of-\d+\.json$/.test(name) && dir.endsWith('tasks')) {
      const sharable = join(dir, '..', 'tasks-sharable')
      if (exists(sharable)) continue
    }
    // `<x>.json` beside `<x>-sharable.json`: the sharable one is the re-uploadable definition,
    // but an instruction's is its bare Markdown, so there the row (which names it) is read.
    if (name.endsWith('-sharable.json')) {
      if (isInstructionRow(join(dir, name.replace(/-sharable\.json$/, '.json')))) continue
    } else if (name.endsWith('.json')) {
      // Only a file with a sharable twin is parsed to tell: the others are read once, below.
      const twin = join(dir, name.replace(/\.json$/, '-sharable.json'))
      if (exists(twin) && !isInstructionRow(full)) continue
    }
    readFile(relative(root, full) || name, full, stat.size, reading, exam)
  }
}

/** Reads an exam folder's `examConfig.json`: the exam's id (else the folder's name) and settings. */
function examFolder(root: string, path: string, dir: string, found: Found): ExamFolder {
  const parsed = parseJson(relative(root, path) || basename(path), readFileSync(path, 'utf8'))
  if ('problem' in parsed) {
    found.problems.push(parsed.problem)
    return { examId: basename(dir), settings: {} }
  }
  const v = parsed.doc.value
  const config = isRecord(v) ? v : {}
  const settings: Record<string, unknown> = {}
  for (const key of EXAM_SETTINGS) {
    // CROWDAQ stores a setting left unset as null.
    if (config[key] !== null && config[key] !== undefined) settings[key] = config[key]
  }
  return {
    examId: typeof config.exam_id === 'string' ? config.exam_id : basename(dir),
    settings,
  }
}

function isInstructionRow(path: string): boolean {
  if (!exists(path)) return false
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown
    return isRecord(v) && typeof v.instruction_id === 'string'
  } catch {
    return false
  }
}

function exists(path: string): boolean {
  try {
    statSync(path)
    return true
  } catch {
    return false
  }
}

/** `depth`: how many zips the entry is inside. */
function readEntry(
  file: string,
  bytes: Uint8Array,
  reading: Reading,
  depth: number,
  exam?: ExamFolder,
): void {
  const { found } = reading
  const ext = extname(file).toLowerCase()
  if (ext === '.zip') {
    let entries: { name: string; bytes: Uint8Array }[]
    try {
      entries = readZip(bytes, reading.zip, depth)
    } catch (error) {
      if (!(error instanceof ZipRefusal)) throw error
      found.problems.push({
        file: error.entry === undefined ? file : `${file}!${error.entry}`,
        line: 0,
        column: 0,
        path: '',
        message: error.message,
      })
      return
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
      readEntry(`${file}!${entry.name}`, entry.bytes, reading, depth + 1)
    return
  }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    found.problems.push({ file, line: 0, column: 0, path: '', message: 'not UTF-8 text' })
    return
  }
  if (ext === '.md' || ext === '.markdown') {
    const id = basename(file.split('!').pop() ?? file, ext).replace(/[^A-Za-z0-9_]/g, '_')
    found.instructions.push({ id, markdown: text, file })
    return
  }
  if (ext === '.csv') {
    found.csv.push({ file, text })
    return
  }
  if (ext !== '.json') {
    if (!file.includes('!')) {
      found.problems.push({
        file,
        line: 0,
        column: 0,
        path: '',
        message: 'expected a .json, .md, .csv or .zip file',
      })
    }
    return
  }
  const parsed = parseJson(file, text)
  if ('problem' in parsed) {
    found.problems.push(parsed.problem)
    return
  }
  collect(parsed.doc, parsed.doc.value, [], found, exam)
}

function collect(
  doc: JsonDocument,
  value: unknown,
  path: JsonPath,
  found: Found,
  exam?: ExamFolder,
): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => collect(doc, v, [...path, i], found, exam))
    return
  }
  const problem = (message: string): void => {
    found.problems.push({ file: doc.file, ...doc.locate(path), path: formatted(path), message })
  }
  if (!isRecord(value)) {
    problem('expected a CROWDAQ object (exam, tutorial, task, assignment) or an array of them')
    return
  }
  // An API list page, or an exam's questions page of a desktop export.
  if (Array.isArray(value.payload) && !kindOf(value)) {
    collect(doc, value.payload, [...path, 'payload'], found, exam)
    return
  }
  // An instruction row: its definition is the Markdown.
  if (typeof value.instruction_id === 'string') {
    const markdown = [value.content, value.definition].find((m) => typeof m === 'string')
    if (typeof markdown === 'string') {
      found.instructions.push({ id: value.instruction_id, markdown, file: doc.file })
      return
    }
  }
  // A task set row: the definition is a JSON string.
  if (typeof value.definition === 'string' && !kindOf(value)) {
    const inner = parseJson(`${doc.file} ${formatted([...path, 'definition'])}`, value.definition)
    if ('problem' in inner) found.problems.push(inner.problem)
    else {
      const spec = inner.doc.value
      if (
        isRecord(spec) &&
        spec.annotation_task_id === undefined &&
        typeof value.annotation_task_id === 'string'
      ) {
        spec.annotation_task_id = value.annotation_task_id
      }
      collect(inner.doc, spec, [], found)
    }
    return
  }
  // A tutorial row as the API returns it: the definition is the tutorial.
  if (isRecord(value.definition) && typeof value.tutorial_id === 'string' && !kindOf(value)) {
    value.definition.tutorial_id ??= value.tutorial_id
    collect(doc, value.definition, [...path, 'definition'], found)
    return
  }
  // A questions page of an exam folder: the exam and its settings are in its config.
  if (
    exam &&
    Array.isArray(value.question_set) &&
    !('exam_id' in value) &&
    !('tutorial_id' in value)
  ) {
    Object.assign(value, exam.settings, { exam_id: exam.examId })
    markDisabled(value.question_set, value.meta)
  }
  const kind = kindOf(value)
  if (!kind) {
    problem(
      'not a CROWDAQ item: expected exam_id or tutorial_id with question_set, annotation_groups, or an assignment row',
    )
    return
  }
  found.items.push({ kind, value, doc, path })
}

const formatted = (path: JsonPath): string => (path.length === 0 ? '' : formatPath(path))

/** A questions page's `meta` rows say which questions are disabled; the question set does not. */
function markDisabled(questions: unknown[], meta: unknown): void {
  if (!Array.isArray(meta)) return
  const disabled = new Set(
    meta.flatMap((m) => (isRecord(m) && m.disabled === true ? [m.question_id] : [])),
  )
  for (const q of questions) {
    if (isRecord(q) && disabled.has(q.question_id)) q.disabled = true
  }
}
