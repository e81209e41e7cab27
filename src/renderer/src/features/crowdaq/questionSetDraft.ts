import type { Context, ExamSpec, Question, TutorialSpec } from '../../../../shared/crowdaq/spec'

/**
 * An exam or tutorial as its form edits it, and back to the CROWDAQ JSON main checks and saves.
 * What the form does not show (HTML or media contexts, a qualification id, fields CROWDAQ adds)
 * is carried over untouched. Pure: tested in tests/renderer.
 */

export interface OptionDraft {
  uid: number
  key: string
  label: string
  /** A tutorial explains every option; an exam may not. */
  explanation: string
}

export interface QuestionDraft {
  uid: number
  questionId: string
  text: string
  /** The question's text context, edited here (empty: none). */
  passage: string
  /** False when its contexts are not one text (HTML, media, several): they are kept as they are. */
  passageEditable: boolean
  options: OptionDraft[]
  answer: string
  disabled: boolean
  /** In the project already: attempts may have shown it, so it can be disabled, not removed. */
  saved: boolean
  /** The question as loaded, for the fields the form does not show. */
  original: Question | null
}

export interface QuestionSetDraft {
  kind: 'exam' | 'tutorial'
  id: string
  instructionId: string
  tutorialId: string
  questionsPerAttempt: number
  passingPercent: number
  attemptsAllowed: number
  timeLimitSeconds: number
  questions: QuestionDraft[]
  /** Fields of the set the form does not show, kept. */
  rest: Record<string, unknown>
}

let nextUid = 1
const uid = (): number => nextUid++

export function newOption(key: string): OptionDraft {
  return { uid: uid(), key, label: '', explanation: '' }
}

/** A blank question with the first free id `q<n>` and options A and B. */
export function newQuestion(draft: Pick<QuestionSetDraft, 'questions'>): QuestionDraft {
  const taken = new Set(draft.questions.map((q) => q.questionId))
  let n = draft.questions.length + 1
  while (taken.has(`q${n}`)) n++
  return {
    uid: uid(),
    questionId: `q${n}`,
    text: '',
    passage: '',
    passageEditable: true,
    options: [newOption('A'), newOption('B')],
    answer: 'A',
    disabled: false,
    saved: false,
    original: null,
  }
}

/** The first option key not taken: A, B, … Z, then O27, O28, …. */
export function nextKey(options: readonly OptionDraft[]): string {
  const keys = new Set(options.map((o) => o.key))
  for (let i = 0; ; i++) {
    const key = i < 26 ? String.fromCharCode(65 + i) : `O${i + 1}`
    if (!keys.has(key)) return key
  }
}

export function newDraft(kind: 'exam' | 'tutorial'): QuestionSetDraft {
  const draft: QuestionSetDraft = {
    kind,
    id: '',
    instructionId: '',
    tutorialId: '',
    questionsPerAttempt: 0,
    passingPercent: 100,
    attemptsAllowed: 1,
    timeLimitSeconds: 3600,
    questions: [],
    rest: {},
  }
  draft.questions.push(newQuestion(draft))
  return draft
}

function questionDraft(q: Question): QuestionDraft {
  const contexts = q.question.context ?? []
  const only = contexts.length === 1 ? contexts[0] : undefined
  const editable = contexts.length === 0 || only?.type === 'text'
  return {
    uid: uid(),
    questionId: q.question_id,
    text: q.question.question_text,
    passage: only?.type === 'text' ? only.text : '',
    passageEditable: editable,
    options: Object.entries(q.question.options).map(([key, label]) => ({
      uid: uid(),
      key,
      label,
      explanation: q.explanation?.[key] ?? '',
    })),
    answer: q.answer,
    disabled: q.disabled === true,
    saved: true,
    original: q,
  }
}

export function draftOf(kind: 'exam', spec: ExamSpec): QuestionSetDraft
export function draftOf(kind: 'tutorial', spec: TutorialSpec): QuestionSetDraft
export function draftOf(kind: 'exam' | 'tutorial', spec: ExamSpec | TutorialSpec): QuestionSetDraft
export function draftOf(
  kind: 'exam' | 'tutorial',
  spec: ExamSpec | TutorialSpec,
): QuestionSetDraft {
  const {
    question_set: questions,
    instruction_id: instructionId,
    ...others
  } = spec as ExamSpec & TutorialSpec
  const rest: Record<string, unknown> = { ...others }
  const take = <T>(key: string, fallback: T): T => {
    const v = rest[key]
    delete rest[key]
    return (v ?? fallback) as T
  }
  const id = take<string>(kind === 'exam' ? 'exam_id' : 'tutorial_id', '')
  return {
    kind,
    id,
    instructionId: instructionId ?? '',
    tutorialId: take<string>('tutorial_id', ''),
    questionsPerAttempt: take('num_of_questions', 0),
    passingPercent: Math.round(take('passing_grade', 1) * 100),
    attemptsAllowed: take('max_attempts', 1),
    timeLimitSeconds: take('time_limit_in_seconds', 3600),
    questions: questions.map(questionDraft),
    rest,
  }
}

function questionSpec(kind: 'exam' | 'tutorial', q: QuestionDraft): Record<string, unknown> {
  const original = q.original
  const kept = original?.question.context ?? []
  const first = kept[0]
  let context: Context[] | undefined
  if (!q.passageEditable || (first?.type === 'text' && first.text === q.passage)) context = kept
  else if (q.passage.trim() !== '') {
    // A changed text drops its highlights: their offsets were into the old text.
    context = [
      {
        type: 'text',
        ...(first?.id ? { id: first.id } : {}),
        label: first?.label ?? 'Passage',
        text: q.passage,
      },
    ]
  }
  const { disabled: _was, explanation: _explained, ...base } = original ?? {}
  const explains = kind === 'tutorial' || q.options.some((o) => o.explanation.trim() !== '')
  return {
    ...base,
    type: 'multiple-choice',
    question_id: q.questionId.trim(),
    question: {
      ...(original?.question ?? {}),
      ...(context ? { context } : {}),
      question_text: q.text,
      options: Object.fromEntries(q.options.map((o) => [o.key.trim(), o.label])),
    },
    answer: q.answer,
    ...(explains
      ? { explanation: Object.fromEntries(q.options.map((o) => [o.key.trim(), o.explanation])) }
      : {}),
    ...(kind === 'exam' && q.disabled ? { disabled: true } : {}),
  }
}

/** The draft as CROWDAQ exam or tutorial JSON (main checks it as it checks an import). */
export function specOf(draft: QuestionSetDraft): Record<string, unknown> {
  const question_set = draft.questions.map((q) => questionSpec(draft.kind, q))
  const instruction = draft.instructionId.trim()
  if (draft.kind === 'tutorial') {
    return {
      ...draft.rest,
      tutorial_id: draft.id.trim(),
      ...(instruction ? { instruction_id: instruction } : {}),
      question_set,
    }
  }
  const tutorial = draft.tutorialId.trim()
  return {
    ...draft.rest,
    exam_id: draft.id.trim(),
    ...(instruction ? { instruction_id: instruction } : {}),
    ...(tutorial ? { tutorial_id: tutorial } : {}),
    num_of_questions: draft.questionsPerAttempt,
    max_attempts: draft.attemptsAllowed,
    passing_grade: draft.passingPercent / 100,
    time_limit_in_seconds: draft.timeLimitSeconds,
    question_set,
  }
}

/** `$.question_set[2].answer` → `Question 3 (q3): answer`; other paths as they are. */
export function describePath(path: string, draft: QuestionSetDraft): string {
  const m = /^\$\.question_set\[(\d+)\]\.?(.*)$/.exec(path)
  if (!m) return path.replace(/^\$\.?/, '') || 'the set'
  const i = Number(m[1])
  const q = draft.questions[i]
  const where = `Question ${i + 1}${q ? ` (${q.questionId})` : ''}`
  return m[2] ? `${where}: ${m[2]}` : where
}
