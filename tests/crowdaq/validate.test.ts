import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { CrowdaqInputError } from '../../src/main/collections/crowdaq/import/problems'
import { useProject } from '../mturk/project-helpers'
import { useTempDir } from '../helpers/tmp'
import { fixture } from './helpers'

const tempDir = useTempDir()
const newProject = useProject()
const author = 'test'

function problemsOf(run: () => unknown): CrowdaqInputError {
  try {
    run()
  } catch (error) {
    if (error instanceof CrowdaqInputError) return error
    throw error
  }
  throw new Error('expected the import to be refused')
}

const BAD_EXAM = `{
  "exam_id": "bad",
  "question_set": [
    {"type": "multiple-choice", "question_id": "q1",
     "question": {"question_text": "?", "options": {"A": "a", "B": "b"}}, "answer": "C"},
    {"type": "multiple-choice", "question_id": "q1",
     "question": {"question_text": "?", "options": {"A": "a"}}, "answer": "A"}
  ]
}`

const BAD_TASK = `[{"annotation_groups": [{"id": "g", "min": 5, "max": 2, "annotations": [
  {"type": "multiple-choice", "id": "x", "options": {"A": "a"}},
  {"type": "text", "id": "x"},
  {"type": "text", "id": "y", "conditions": [{"op": "eq", "id": "nope", "value": "A"}],
   "constraints": [{"type": "regex", "regex": "([a-"}]},
  {"type": "span-from-text", "id": "s", "from_context": "missing"}
]}]}]`

describe('CROWDAQ import validation', () => {
  it('names file, line, column and JSON path for what the schema misses, and writes nothing', () => {
    const dir = tempDir()
    const file = join(dir, 'bad_exam.json')
    writeFileSync(file, BAD_EXAM)
    const { db } = newProject()
    const e = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(
      e.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.path}: ${p.message}`),
    ).toEqual([
      "bad_exam.json:5:75 $.question_set[0].answer: answer 'C' is not one of the options (A, B)",
      "bad_exam.json:6:33 $.question_set[1].question_id: question id 'q1' is used twice (also at question_set[0])",
    ])
    expect(e.info).toMatchObject({
      file: 'bad_exam.json',
      line: 5,
      column: 75,
      field: '$.question_set[0].answer',
    })
    expect(db.prepare('SELECT count(*) FROM crowdaq_exams').pluck().get()).toBe(0)
  })

  it('checks task specs: unique collector ids, condition targets, regexes, from_context, min ≤ max', () => {
    const dir = tempDir()
    const file = join(dir, 'task.json')
    writeFileSync(file, BAD_TASK)
    const { db } = newProject()
    const e = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(e.problems.map((p) => `${p.path}: ${p.message}`)).toEqual([
      '$[0].annotation_groups[0].min: min 5 is more than max 2',
      "$[0].annotation_groups[0].annotations[1].id: collector id 'x' is used twice in group 'g' (also at annotations[0])",
      "$[0].annotation_groups[0].annotations[2].conditions[0]: condition refers to 'nope', not a collector of group 'g'",
      '$[0].annotation_groups[0].annotations[2].constraints[0].regex: regex "([a-" does not compile',
      "$[0].annotation_groups[0].annotations[3].from_context: from_context 'missing' is not the id of a text context",
    ])
  })

  it('reports schema problems and JSON syntax errors with their place', () => {
    const dir = tempDir()
    const file = join(dir, 'broken.json')
    writeFileSync(file, '{\n  "exam_id": "x",\n  "question_set": [1,]\n}')
    const { db } = newProject()
    const e = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(e.message).toMatch(/^broken\.json:3:\d+: not valid JSON/)
    writeFileSync(file, '{"exam_id": "has space", "question_set": []}')
    const e2 = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(e2.problems[0]).toMatchObject({ path: '$.exam_id', line: 1, column: 2 })
  })

  it('imports nothing of a zip when one entry is bad', () => {
    const dir = tempDir()
    const zip = join(dir, 'upload.zip')
    writeFileSync(
      zip,
      zipSync({
        'exam.json': readFileSync(fixture('exam.json')),
        'tasks/bad.json': strToU8(BAD_TASK),
      }),
    )
    const { db } = newProject()
    const e = problemsOf(() => importCrowdaq(db, zip, { author }))
    expect(e.problems[0]?.file).toBe('upload.zip!tasks/bad.json')
    expect(db.prepare('SELECT count(*) FROM crowdaq_exams').pluck().get()).toBe(0)
    writeFileSync(
      zip,
      zipSync({
        'exam.json': readFileSync(fixture('exam.json')),
        'task.json': readFileSync(fixture('task.json')),
      }),
    )
    expect(importCrowdaq(db, zip, { author })).toMatchObject({ exams: 1, tasks: 2 })
  })

  it('refuses CSV attempts with bad fields, naming line, column and field', () => {
    const dir = tempDir()
    const { db } = newProject()
    importCrowdaq(db, fixture('exam.json'), { author })
    const file = join(dir, 'attempts.csv')
    writeFileSync(
      file,
      'worker_id,attempt,question_id,shown,answer\nAW1,one,q1,1,A\nAW1,1,q9,yes,A\n',
    )
    const e = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(e.problems.map((p) => `${p.line}:${p.column} ${p.path}: ${p.message}`)).toEqual([
      "2:5 attempt: expected an attempt number from 1, got 'one'",
      "3:10 shown: expected 1 or 0, got 'yes'",
      "3:1 question_id: question 'q9' is not in exam 'fx_exam'",
    ])
  })

  it('reports every problem of a file with more problems than a call takes arguments', () => {
    const dir = tempDir()
    const { db } = newProject()
    importCrowdaq(db, fixture('exam.json'), { author })
    const rows = 200_000
    const file = join(dir, 'attempts.csv')
    writeFileSync(
      file,
      'worker_id,attempt,question_id,shown,answer\n' + 'AW1,one,q1,1,A\n'.repeat(rows),
    )
    const e = problemsOf(() => importCrowdaq(db, file, { author }))
    expect(e.problems).toHaveLength(rows)
    expect(e.problems.at(-1)).toMatchObject({ line: rows + 1, path: 'attempt' })
    expect(e.message).toMatch(/^200000 problems; nothing was imported:\nattempts\.csv:2:5: /)
    expect(db.prepare('SELECT count(*) FROM crowdaq_exam_attempts').pluck().get()).toBe(0)
  })

  const samples = join(__dirname, '..', '..', '..', 'shared', 'data', 'crowdaq')
  it.skipIf(!existsSync(samples))('imports the public samples', () => {
    const { path } = newProject()
    const db = openProject(path)
    try {
      for (const f of [
        'example_exam.json',
        'example_exam_simple.json',
        'example_tutorial.json',
        'example_task_complex.json',
      ]) {
        importCrowdaq(db, join(samples, f), { author })
      }
      expect(db.prepare('SELECT count(*) FROM crowdaq_questions').pluck().get()).toBe(17)
      expect(db.prepare('SELECT count(*) FROM crowdaq_tutorials').pluck().get()).toBe(1)
    } finally {
      db.close()
    }
  })
  if (!existsSync(samples))
    console.warn(`CROWDAQ samples not found at ${samples}: the sample test is skipped`)
})
