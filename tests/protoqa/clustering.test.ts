import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { writeProtoqaRelease } from '../../src/main/collections/protoqa/release/writer'
import { importProtoqaFiles } from '../../src/main/collections/protoqa/import/run'
import { agreement, compareReviewers } from '../../src/main/collections/protoqa/agreement'
import { saveClustering } from '../../src/main/collections/protoqa/clusterings'
import { useTempDir } from '../helpers/tmp'

const answers = join(import.meta.dirname, '../fixtures/protoqa/answers.csv')

describe('clustering a question: two reviewers, agreement, adjudication, export', () => {
  const tempDir = useTempDir()

  it('records each clustering with its author, compares them with BLANC and exports the final one', () => {
    const dir = tempDir()
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    importProtoqaFiles(db, [{ path: answers }])
    // t2q1: sand ×2, shells, "water, lots".
    const ann = saveClustering(db, {
      question: 't2q1',
      role: 'reviewer',
      reviewer: 'ann',
      author: 'test',
      draft: {
        clusters: [{ name: 'sand', answers: ['sand', 'shells'] }],
        invalid: ['water, lots'],
        fixes: {},
      },
    })
    expect(ann).toMatchObject({ role: 'reviewer', author: 'ann', counts: [3] })
    saveClustering(db, {
      question: 't2q1',
      role: 'reviewer',
      reviewer: 'bob',
      author: 'test',
      draft: {
        clusters: [
          { name: 'sand', answers: ['sand'] },
          { name: '', answers: ['shells'] },
          { name: 'sea', answers: ['water, lots'] },
        ],
        invalid: [],
        fixes: {},
      },
    })
    const report = agreement(db)
    expect(report.questions.map((q) => [q.question, q.reviewers])).toEqual([
      ['t2q1', ['ann', 'bob']],
    ])
    // Ann: 3 responses {sand, sand, shells} linked (3 C pairs); Bob links the two sands only,
    // and has 3 N pairs among the common items and 3 more with "water, lots".
    const b = report.questions[0]?.blanc
    expect(b?.c).toMatchObject({ recall: 1 / 3, precision: 1 })
    expect(b?.uses).toBe('c')
    expect(report.overall?.questions).toBe(1)

    const comparison = compareReviewers(db, 't2q1')
    expect(comparison.disagreements.map((d) => d.answer)).toEqual(['sand', 'shells', 'water, lots'])

    saveClustering(db, {
      question: 't2q1',
      role: 'final',
      reviewer: 'cy',
      author: 'test',
      draft: {
        clusters: [
          { name: 'shells', answers: ['shells'] },
          { name: 'sand', answers: ['sand'] },
        ],
        invalid: ['water, lots'],
        fixes: { shells: 'sea shells' },
      },
    })
    const out = join(dir, 'out.jsonl')
    const sheet = join(dir, 'datasheet.md')
    expect(writeProtoqaRelease(db, out, sheet)).toMatchObject({
      questions: 1,
      unclustered: ['t2q2'],
    })
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      metadata: { id: 't2q1', source: 'answer list' },
      question: {
        original: 'Name something you find at a beach.',
        normalized: 'name something you find at a beach.',
      },
      answers: {
        raw: { sand: 2, 'sea shells': 1, 'water, lots': 1 },
        clusters: {
          't2q1.0': { count: 2, answers: ['sand'] },
          't2q1.1': { count: 1, answers: ['sea shells'] },
        },
      },
      num: { answers: 3, clusters: 2 },
    })
    expect(readFileSync(sheet, 'utf8')).toContain('| t2q1 | ann, bob |')
    db.close()
  })

  it('refuses a clustering that names an unknown answer or places one twice, and writes nothing', () => {
    const db = openProject(join(tempDir(), 'p.winnow'), { create: true })
    importProtoqaFiles(db, [{ path: answers }])
    const save = (draft: Parameters<typeof saveClustering>[1]['draft']): void => {
      saveClustering(db, {
        question: 't2q1',
        role: 'reviewer',
        reviewer: 'ann',
        author: 't',
        draft,
      })
    }
    expect(() =>
      save({ clusters: [{ name: 'x', answers: ['mud'] }], invalid: [], fixes: {} }),
    ).toThrow("t2q1 has no answer 'mud'.")
    expect(() =>
      save({ clusters: [{ name: 'x', answers: ['sand'] }], invalid: ['sand'], fixes: {} }),
    ).toThrow("'sand' is in cluster 'x' and in the invalid answers.")
    expect(agreement(db).questions).toEqual([])
    expect(compareReviewers(db, 't2q1').reviewers).toBeNull()
    db.close()
  })
})
