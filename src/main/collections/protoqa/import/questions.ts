import { showValue } from '../../../importers/errors'
import { type TextFile, textLines } from './text'
import { JsonSource } from './values'

/** One question of a ProtoQA JSONL file (FORMATS.md §6.1), checked. */
export interface ProtoqaRecord {
  line: number
  id: string
  source: string
  original: string
  normalized: string
  /** Answer → respondents, in file order. */
  raw: Map<string, number>
  /** In file order; `label` is the file's cluster id (`r1q1.0`). */
  clusters: { label: string; count: number; answers: string[] }[]
}

export interface ProtoqaWarning {
  line: number
  message: string
}

/**
 * Reads every question of a ProtoQA JSONL file. Bad input throws an `InputError` naming the line,
 * the column and the field; what the released files tolerate (a cluster whose count is not the
 * sum of its members' counts, `num` totals that disagree) becomes a warning.
 */
export function readProtoqaQuestions(file: TextFile): {
  records: ProtoqaRecord[]
  warnings: ProtoqaWarning[]
} {
  const records: ProtoqaRecord[] = []
  const warnings: ProtoqaWarning[] = []
  const seen = new Map<string, number>()
  for (const { line, text } of textLines(file.text)) {
    const src = new JsonSource(file.path, text, line)
    const record = readQuestion(src, line, warnings)
    const earlier = seen.get(record.id)
    if (earlier !== undefined)
      src.fail(['metadata', 'id'], `question ${showValue(record.id)} is already on line ${earlier}`)
    seen.set(record.id, line)
    records.push(record)
  }
  if (records.length === 0)
    src0(file).fail([], 'expected ProtoQA questions, one JSON object a line')
  return { records, warnings }
}

const src0 = (file: TextFile): JsonSource => new JsonSource(file.path, '', 0)

function readQuestion(src: JsonSource, line: number, warnings: ProtoqaWarning[]): ProtoqaRecord {
  const top = src.object(src.parse(), [])
  const metadata = src.object(top.metadata, ['metadata'])
  const id = src.string(metadata.id, ['metadata', 'id']).trim()
  const source =
    metadata.source === undefined ? '' : src.string(metadata.source, ['metadata', 'source'])
  const question = src.object(top.question, ['question'])
  const original = src.string(question.original, ['question', 'original'])
  const normalized =
    question.normalized === undefined
      ? original.toLowerCase()
      : src.string(question.normalized, ['question', 'normalized'])
  const answers = src.object(top.answers, ['answers'])
  const rawObject = answers.raw === undefined ? {} : src.object(answers.raw, ['answers', 'raw'])
  const raw = new Map<string, number>()
  for (const [answer, count] of Object.entries(rawObject))
    raw.set(answer, src.count(count, ['answers', 'raw', answer]))
  const clusterObject =
    answers.clusters === undefined ? {} : src.object(answers.clusters, ['answers', 'clusters'])
  const clusters: ProtoqaRecord['clusters'] = []
  const clusterOf = new Map<string, string>()
  const memberSets = new Map<string, string>()
  for (const [label, value] of Object.entries(clusterObject)) {
    const at = ['answers', 'clusters', label]
    const cluster = src.object(value, at)
    const count = src.count(cluster.count, [...at, 'count'])
    const members = src.strings(cluster.answers, [...at, 'answers'])
    for (const member of members) {
      const other = clusterOf.get(member)
      if (other !== undefined)
        src.fail([...at, 'answers'], `${showValue(member)} is also in cluster ${other}`)
      clusterOf.set(member, label)
      if (!raw.has(member)) {
        // Scraped questions list only their clusters; the answer joins the raw answers uncounted.
        raw.set(member, 0)
      }
    }
    const set = [...members].sort().join('\u0000')
    const same = memberSets.get(set)
    if (same !== undefined) src.fail([...at, 'answers'], `cluster ${same} has the same answers`)
    memberSets.set(set, label)
    const sum = members.reduce((s, m) => s + (raw.get(m) ?? 0), 0)
    if (sum !== count && sum > 0)
      warnings.push({
        line,
        message: `line ${line}: cluster ${label} counts ${count}, its answers' raw counts sum to ${sum}`,
      })
    clusters.push({ label, count, answers: members })
  }
  if (top.num !== undefined) {
    const num = src.object(top.num, ['num'])
    const total = clusters.reduce((s, c) => s + c.count, 0)
    const declared = num.answers === undefined ? total : src.count(num.answers, ['num', 'answers'])
    if (declared !== total)
      warnings.push({
        line,
        message: `line ${line}: num.answers is ${declared}, the clusters count ${total}`,
      })
    const declaredClusters =
      num.clusters === undefined ? clusters.length : src.count(num.clusters, ['num', 'clusters'])
    if (declaredClusters !== clusters.length)
      warnings.push({
        line,
        message: `line ${line}: num.clusters is ${declaredClusters}, the file lists ${clusters.length}`,
      })
  }
  return { line, id, source, original, normalized, raw, clusters }
}
