import { basename } from 'node:path'
import type { Db } from '../../../db/connection'
import { currentClusterings } from '../db/clusterings'
import { questionAnswers, questionOrigin, questionRow } from '../db/questions'
import { locateFieldOnLine } from '../../../importers/csv'
import { InputError, showValue } from '../../../importers/errors'
import type { AnswerList, ProtoqaResponse } from './answerLists'
import type { ProtoqaRecord } from './questions'
import { readTextFile, textLines } from './text'
import { JsonSource } from './values'

/** How a question of a file differs from the question of that id already in the project. */
interface Difference {
  what: 'text' | 'answers' | 'clusters' | 'source'
  /** The JSON path on the file's line that says otherwise. */
  path: string[]
  /** Here against there, `there` being where the project's question came from. */
  says: (there: string) => string
}

const members = (answers: readonly string[]): string => answers.map((a) => showValue(a)).join(', ')
const sameMembers = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000')

/**
 * The first way `record` differs from the question of its id in the project: its text, a raw
 * answer or its count, a cluster (its count or answers), its source. Null when they agree, so
 * importing a file again adds nothing and says nothing.
 */
function questionDifference(db: Db, record: ProtoqaRecord): Difference | null {
  const stored = questionRow(db, record.id)
  if (!stored) return null
  for (const field of ['original', 'normalized'] as const) {
    if (record[field] !== stored[field])
      return {
        what: 'text',
        path: ['question', field],
        says: (there) =>
          `${showValue(record[field])} here, ${showValue(stored[field])} in ${there}`,
      }
  }
  const answers = new Map(questionAnswers(db, stored.id).map((a) => [a.text, a.count]))
  for (const [answer, count] of record.raw) {
    const before = answers.get(answer)
    if (before === count) continue
    return {
      what: 'answers',
      path: ['answers', 'raw', answer],
      says: (there) =>
        before === undefined
          ? `${showValue(answer)} is an answer here, not in ${there}`
          : `${showValue(answer)} counts ${count} here, ${before} in ${there}`,
    }
  }
  for (const answer of answers.keys()) {
    if (!record.raw.has(answer))
      return {
        what: 'answers',
        path: ['answers', 'raw'],
        says: (there) => `${showValue(answer)} is an answer in ${there}, not here`,
      }
  }
  const imported = currentClusterings(db, stored.id).find((c) => c.role === 'imported')
  const clusters = new Map(
    (imported?.clusters ?? []).map((c, i) => [
      c.name,
      { answers: c.answers, count: imported?.counts[i] ?? 0 },
    ]),
  )
  for (const cluster of record.clusters) {
    const before = clusters.get(cluster.label)
    const path = ['answers', 'clusters', cluster.label]
    const name = `cluster ${cluster.label}`
    if (!before)
      return { what: 'clusters', path, says: (there) => `${name} is here, not in ${there}` }
    if (!sameMembers(cluster.answers, before.answers))
      return {
        what: 'clusters',
        path,
        says: (there) =>
          `${name} holds ${members(cluster.answers)} here, ${members(before.answers)} in ${there}`,
      }
    if (cluster.count !== before.count)
      return {
        what: 'clusters',
        path: [...path, 'count'],
        says: (there) => `${name} counts ${cluster.count} here, ${before.count} in ${there}`,
      }
  }
  const labels = new Set(record.clusters.map((c) => c.label))
  for (const label of clusters.keys()) {
    if (!labels.has(label))
      return {
        what: 'clusters',
        path: ['answers', 'clusters'],
        says: (there) => `cluster ${label} is in ${there}, not here`,
      }
  }
  if (record.source !== stored.source)
    return {
      what: 'source',
      path: ['metadata', 'source'],
      says: (there) => `${showValue(record.source)} here, ${showValue(stored.source)} in ${there}`,
    }
  return null
}

/**
 * Refuses a question of `path` whose id the project already holds with other text, answers,
 * clusters or source, located at the field that differs. Nothing of the import is kept.
 */
export function checkSameQuestion(db: Db, path: string, record: ProtoqaRecord): void {
  const difference = questionDifference(db, record)
  if (!difference) return
  const stored = questionRow(db, record.id)
  const origin = (stored && questionOrigin(db, stored.id)) ?? 'the project'
  const other =
    difference.what === 'source' ? 'from another source' : `with other ${difference.what}`
  throw new InputError(
    'conflicting-question',
    conflictMessage(record.id, `${other}: ${difference.says(origin)}`, path),
    { path, ...locate(path, record.line, difference.path), field: difference.path.join('.') },
  )
}

/** A row of a raw answer list whose question the project (or an earlier row) words otherwise. */
export function otherQuestionText(
  db: Db,
  path: string,
  list: AnswerList,
  row: ProtoqaResponse,
  questionId: number,
  text: string,
): InputError {
  const origin = questionOrigin(db, questionId) ?? 'the project'
  return new InputError(
    'conflicting-question',
    conflictMessage(
      row.questionId,
      `with other text: ${showValue(row.question)} here, ${showValue(text)} in ${origin}`,
      path,
    ),
    {
      path,
      ...locateFieldOnLine(path, row.line, list.questionColumn.index),
      field: list.questionColumn.name,
    },
  )
}

const conflictMessage = (id: string, difference: string, path: string): string =>
  `question ${showValue(id)} was imported before ${difference}. ` +
  `Nothing was imported from ${basename(path)} or the files imported with it.`

/** Where a field sits on a line of a JSONL file: the file is read again, only for the refusal. */
function locate(path: string, line: number, field: string[]): { line: number; column: number } {
  for (const l of textLines(readTextFile(path).text)) {
    if (l.line === line) return new JsonSource(path, l.text, line).locate(field)
  }
  return { line, column: 0 }
}
