import { writeFileSync } from 'node:fs'
import { checkSelection, MIN_TOP_ANSWERS, TOP_CLUSTERS } from '../../../../shared/protoqa/selection'
import type { Db } from '../../../db/connection'
import { questionRows } from '../db/questions'
import { agreement } from '../agreement'
import { type ReleasedQuestion, releasedQuestions } from '../released'
import { pythonJson } from './pythonJson'
import { append } from '../../../../shared/lists'

/**
 * One question as a line of the ProtoQA JSONL format: clusters by descending count, invalid
 * answers out of the clusters but kept in the raw answers.
 */
function questionLine(q: ReleasedQuestion): string {
  return pythonJson({
    metadata: { id: q.row.externalId, source: q.row.source },
    question: { original: q.row.original, normalized: q.row.normalized },
    answers: {
      raw: q.raw,
      clusters: new Map(q.clusters.map((c) => [c.id, { count: c.count, answers: c.answers }])),
    },
    num: { answers: q.clusters.reduce((s, c) => s + c.count, 0), clusters: q.clusters.length },
  })
}

export interface ProtoqaRelease {
  questions: number
  /** Questions left out: no final clustering yet. */
  unclustered: string[]
  /** Questions whose 8 largest clusters hold fewer than 85 answers (kept, with the number). */
  belowSelection: { question: string; topAnswers: number }[]
}

/** The ProtoQA JSONL text of the released questions, its datasheet, and what was left out. */
export function protoqaRelease(db: Db): ProtoqaRelease & { jsonl: string; datasheet: string } {
  const released = releasedQuestions(db)
  const clustered = new Set(released.map((q) => q.row.externalId))
  const result: ProtoqaRelease = {
    questions: released.length,
    unclustered: questionRows(db)
      .map((q) => q.externalId)
      .filter((id) => !clustered.has(id)),
    belowSelection: released
      .map((q) => ({
        question: q.row.externalId,
        ...checkSelection(q.clusters.map((c) => c.count)),
      }))
      .filter((c) => !c.passes)
      .map(({ question, topAnswers }) => ({ question, topAnswers })),
  }
  return {
    ...result,
    jsonl: released.map((q) => questionLine(q) + '\n').join(''),
    datasheet: datasheet(db, released, result),
  }
}

/** Writes the released questions as ProtoQA JSONL to `path`, and the datasheet when asked. */
export function writeProtoqaRelease(db: Db, path: string, datasheetPath?: string): ProtoqaRelease {
  const { jsonl, datasheet: sheet, ...result } = protoqaRelease(db)
  writeFileSync(path, jsonl)
  if (datasheetPath) writeFileSync(datasheetPath, sheet)
  return result
}

function datasheet(db: Db, released: ReleasedQuestion[], result: ProtoqaRelease): string {
  const report = agreement(db)
  const responses = released.reduce((s, q) => s + [...q.raw.values()].reduce((a, b) => a + b, 0), 0)
  const clustered = released.reduce((s, q) => s + q.clusters.reduce((a, c) => a + c.count, 0), 0)
  const f = (x: number): string => x.toFixed(4)
  const lines = [
    '# ProtoQA datasheet',
    '',
    '## Counts',
    '',
    `- Questions: ${released.length}` +
      (result.unclustered.length
        ? ` (${result.unclustered.length} without a final clustering left out)`
        : ''),
    `- Responses: ${responses}; in clusters: ${clustered}; invalid: ${responses - clustered}`,
    `- Clusters: ${released.reduce((s, q) => s + q.clusters.length, 0)}`,
    `- Questions whose ${TOP_CLUSTERS} largest clusters hold fewer than ${MIN_TOP_ANSWERS} answers: ${result.belowSelection.length}` +
      (result.belowSelection.length
        ? ` (${result.belowSelection.map((b) => `${b.question}: ${b.topAnswers}`).join(', ')})`
        : ''),
    '',
    '## Agreement of the two reviewers (BLANC)',
    '',
  ]
  if (report.overall === null) lines.push('No question was clustered by two reviewers.')
  else {
    lines.push(
      `Items are responses; an answer one reviewer marked invalid is left out of that reviewer's side.`,
      '',
      `- Overall (mean over ${report.overall.questions} questions): BLANC ${f(report.overall.blanc)}, F(C) ${f(report.overall.c)}, F(N) ${f(report.overall.n)}`,
      '',
      '| question | reviewers | BLANC | F(C) | F(N) |',
      '|---|---|---|---|---|',
    )
    append(
      lines,
      report.questions.map(
        (q) =>
          `| ${q.question} | ${q.reviewers.join(', ')} | ${f(q.blanc.blanc)} | ${f(q.blanc.c.f)} | ${f(q.blanc.n.f)} |`,
      ),
    )
  }
  return lines.join('\n') + '\n'
}
