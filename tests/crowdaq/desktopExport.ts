import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** What importing the whole export adds, by kind. */
export const EXPORT_COUNTS = {
  exams: 1,
  tutorials: 1,
  instructions: 1,
  tasks: 2,
  examAttempts: 3,
  taskAssignments: 4,
}

/**
 * A small CROWDAQ desktop-client export (`~/.crowdaq/<endpoint>/<owner>/`), laid out as the
 * client's sync writes it: per exam its config, questions and assignments in pages
 * (`<p>-of-<n>`), per task set its config, task rows, re-uploadable definitions and assignment
 * pages, per instruction and tutorial the row and its sharable definition, and the HIT lists and
 * status files beside them. Returns the owner folder.
 */
export function writeDesktopExport(root: string): string {
  const owner = join(root, '.crowdaq', 'api.crowdaq.example', 'alice')
  const put = (path: string, value: unknown): void => {
    const full = join(owner, path)
    mkdirSync(dirname(full), { recursive: true })
    writeFileSync(full, JSON.stringify(value))
  }
  const row = { owner: 'alice', create_at: '2026-01-10T09:00:00.000Z' }
  const status = { status: 'finished', lastUpdate: '2026-01-20T09:00:00+00:00', message: '' }
  const question = (id: string, answer: string) => ({
    type: 'multiple-choice',
    question_id: id,
    question: {
      context: [{ type: 'text', label: 'Sentence', text: `Sentence ${id} has 3 parts.` }],
      question_text: 'Which is the quantity?',
      options: { A: '3', B: '3 parts', C: 'parts' },
    },
    answer,
  })

  // Exam: two pages of questions (the last one disabled), two pages of assignments.
  put('exam/qty_exam/examConfig.json', {
    _id: 'cfg1',
    ...row,
    exam_id: 'qty_exam',
    num_of_questions: 2,
    max_attempts: 2,
    passing_grade: 0.5,
    time_limit_in_seconds: 600,
    instruction_id: 'qty_guide',
    tutorial_id: 'qty_tutorial',
    qualification_id: null,
  })
  const meta = (id: string, disabled: boolean) => ({
    _id: `m_${id}`,
    ...row,
    exam_id: 'qty_exam',
    question_id: id,
    disabled,
    totalCount: 2,
    answerDistribution: [{ selection: 'B', count: '2' }],
  })
  put('exam/qty_exam/questions/questions-1-of-2.json', {
    question_set: [question('q1', 'B'), question('q2', 'B')],
    meta: [meta('q1', false), meta('q2', false)],
  })
  put('exam/qty_exam/questions/questions-2-of-2.json', {
    question_set: [question('q3', 'A')],
    meta: [meta('q3', true)],
  })
  const attempt = (
    id: string,
    worker: string,
    answers: Record<string, string>,
    start: string,
    end: string,
  ) => ({
    _id: id,
    owner: 'alice',
    create_at: start,
    update_at: end,
    exam_id: 'qty_exam',
    worker_id: worker,
    worker_platform: 'mturk',
    assignment_payload: Object.keys(answers).map((q) => ({
      type: 'multiple-choice',
      question_id: q,
      question: question(q, 'B').question,
    })),
    response_payload: answers,
    deadline: new Date(Date.parse(start) + 600_000).toISOString(),
    complete_time: end,
    grade: null,
  })
  put('exam/qty_exam/assignments/assignments-1-of-2.json', [
    attempt('ea1', 'AWANN', { q1: 'B', q2: 'B' }, '2026-01-11T10:00:00Z', '2026-01-11T10:05:00Z'),
    attempt('ea2', 'AWBEN', { q1: 'A', q2: 'C' }, '2026-01-11T11:00:00Z', '2026-01-11T11:04:00Z'),
  ])
  // Ben's second attempt: right, but 20 minutes on a 10-minute exam.
  put('exam/qty_exam/assignments/assignments-2-of-2.json', [
    attempt('ea3', 'AWBEN', { q2: 'B', q1: 'B' }, '2026-01-12T10:00:00Z', '2026-01-12T10:20:00Z'),
  ])
  put('exam/qty_exam/hits/hits-batch1.json', [{ HITId: 'H1', HITTypeId: 'T1' }])
  put('exam/qty_exam/status.json', status)

  // Task set: task rows (definitions as strings) and their sharable definitions.
  const task = (text: string) => ({
    contexts: [{ type: 'text', id: 'review', label: 'Review', text }],
    annotation_groups: [
      {
        id: 'sentiment',
        annotations: [
          {
            type: 'multiple-choice',
            id: 'polarity',
            options: { A: 'Positive', B: 'Negative' },
          },
        ],
      },
    ],
  })
  const tasks = [
    { id: 'r1', spec: task('Lovely soup.') },
    { id: 'r2', spec: task('Cold soup.') },
  ]
  put('taskset/reviews/tasksetConfig.json', {
    _id: 'ts1',
    ...row,
    annotation_taskset_id: 'reviews',
    time_limit_in_seconds: 900,
  })
  put(
    'taskset/reviews/tasks/annotation_task-1-of-1.json',
    tasks.map((t) => ({
      _id: `t_${t.id}`,
      ...row,
      annotation_taskset_id: 'reviews',
      annotation_task_id: t.id,
      definition: JSON.stringify(t.spec),
    })),
  )
  put(
    'taskset/reviews/tasks-sharable/annotation_task-1-of-1.json',
    tasks.map((t) => ({ ...t.spec, annotation_task_id: t.id })),
  )
  const response = (task: string, worker: string, polarity: string) => ({
    _id: `a_${task}_${worker}`,
    ...row,
    annotation_taskset_id: 'reviews',
    annotation_task_id: task,
    worker_id: worker,
    worker_platform: 'mturk',
    start_time: '2026-01-13T10:00:00.000Z',
    deadline: '2026-01-13T10:15:00.000Z',
    complete_time: '2026-01-13T10:02:00.000Z',
    response: { filteredResult: { sentiment: { polarity } }, result: {}, condition: {} },
  })
  put('taskset/reviews/assignments/annotation_task_assignments-1-of-1.json', [
    response('r1', 'AWANN', 'A'),
    response('r1', 'AWBEN', 'A'),
    response('r2', 'AWANN', 'B'),
    response('r2', 'AWBEN', 'A'),
  ])
  put('taskset/reviews/hits/hits-batch1.json', [{ HITId: 'H2' }])
  put('taskset/reviews/status.json', status)

  // Instruction and tutorial: the row and its sharable definition.
  const guide = '# Quantities\n\nMark the number **with** its unit.'
  put('instruction/qty_guide/instruction.json', {
    _id: 'i1',
    ...row,
    instruction_id: 'qty_guide',
    definition: guide,
  })
  put('instruction/qty_guide/instruction-sharable.json', guide)
  const tutorial = {
    tutorial_id: 'qty_tutorial',
    instruction_id: 'qty_guide',
    question_set: [{ ...question('t1', 'B'), explanation: { A: 'No unit.', B: 'Yes.', C: 'No.' } }],
  }
  put('tutorial/qty_tutorial/tutorial.json', {
    _id: 'tu1',
    ...row,
    tutorial_id: 'qty_tutorial',
    definition: tutorial,
  })
  put('tutorial/qty_tutorial/tutorial-sharable.json', tutorial)
  return owner
}
