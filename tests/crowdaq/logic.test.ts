import { describe, expect, it } from 'vitest'
import {
  markdownHtml,
  markdownNodes,
  safeHtml,
  safeNodes,
} from '../../src/main/collections/crowdaq/render'
import {
  displayedCollectors,
  filterValues,
  groupProblems,
} from '../../src/shared/crowdaq/conditions'
import { examReport } from '../../src/shared/crowdaq/examReport'
import {
  type AttemptInput,
  bandFor,
  defaultBands,
  gradeAttempts,
  standingAttempts,
} from '../../src/shared/crowdaq/grading'
import type { Group } from '../../src/shared/crowdaq/spec'

const group: Group = {
  id: 'g',
  annotations: [
    { type: 'multiple-choice', id: 'a', options: { A: 'x', B: 'y' } },
    {
      type: 'multiple-choice',
      id: 'b',
      options: { A: 'x', B: 'y' },
      conditions: [{ op: 'eq', id: 'a', value: 'A' }],
    },
    {
      type: 'text',
      id: 'c',
      conditions: [
        {
          op: 'or',
          args: [
            { op: 'eq', id: 'b', value: 'B' },
            { op: 'not', arg: { op: 'eq', id: 'a', value: 'A' } },
          ],
        },
      ],
      constraints: [{ type: 'regex', regex: '^\\S{3,8}$', description: 'one short word' }],
    },
    {
      type: 'text',
      id: 'd',
      optional: true,
      repeated: true,
      min: 1,
      max: 2,
      conditions: [
        { op: 'eq', id: 'a', value: 'A' },
        { op: 'eq', id: 'b', value: 'A' },
      ],
    },
  ],
}

describe('conditions', () => {
  it('evaluates eq, and/or/not and lists; a hidden collector hides what depends on it', () => {
    expect([...displayedCollectors(group, {})]).toEqual(['a', 'c'])
    expect([...displayedCollectors(group, { a: 'A' })]).toEqual(['a', 'b'])
    expect([...displayedCollectors(group, { a: 'A', b: 'B' })]).toEqual(['a', 'b', 'c'])
    expect([...displayedCollectors(group, { a: 'A', b: 'A' })]).toEqual(['a', 'b', 'd'])
    // b's value stays recorded, but b is hidden once a changes: c and d no longer see it.
    expect([...displayedCollectors(group, { a: 'B', b: 'A' })]).toEqual(['a', 'c'])
    expect(filterValues(group, { a: 'B', b: 'A', c: 'word', d: ['x'] })).toEqual({
      a: 'B',
      c: 'word',
    })
  })

  it('checks constraints and repeated min/max on displayed collectors only', () => {
    expect(groupProblems(group, { a: 'B', c: 'two words' })).toEqual({ c: ['one short word'] })
    expect(groupProblems(group, { a: 'A', b: 'A', d: ['1', '2', '3'] })).toEqual({
      d: ['at most 2 allowed, 3 given'],
    })
    expect(groupProblems(group, { a: 'A', b: 'B' })).toEqual({ c: ['required'] })
  })
})

describe('grading', () => {
  const key = new Map([
    ['q1', 'A'],
    ['q2', 'B'],
    ['q3', 'C'],
  ])
  const at = (
    id: number,
    workerId: string,
    completedAt: number | null,
    answers: Record<string, string | null>,
    shown = Object.keys(answers),
  ): AttemptInput => ({
    id,
    workerId,
    completedAt,
    startedAt: null,
    deadline: null,
    order: 0,
    shown,
    answers,
  })

  it('grades over the questions shown, counts unanswered as wrong, numbers by completion time', () => {
    const graded = gradeAttempts(
      { passingGrade: 1, attemptsAllowed: 2, timeLimitSeconds: 600, bands: defaultBands('Q') },
      key,
      [
        at(1, 'W', 200, { q1: 'A', q2: 'B' }),
        at(2, 'W', 100, { q1: 'B', q3: null }),
        at(3, 'W', 300, { q1: 'A' }),
        at(4, 'V', null, { q1: 'A' }, ['q1', 'q2', 'q3']),
      ],
    )
    expect(graded.map((g) => [g.workerId, g.id, g.attempt, g.grade, g.flags])).toEqual([
      ['V', 4, 1, 1 / 3, []],
      ['W', 2, 1, 0, []],
      ['W', 1, 2, 1, []],
      ['W', 3, 3, 1, ['over-limit', 'after-pass']],
    ])
  })

  it('flags attempts that took longer than the time limit, by duration or else by deadline', () => {
    const timed = (
      id: number,
      startedAt: number | null,
      completedAt: number | null,
      deadline: number | null = null,
    ): AttemptInput => ({
      ...at(id, `W${id}`, completedAt, { q1: 'A', q2: 'B', q3: 'C' }),
      startedAt,
      deadline,
    })
    const settings = { passingGrade: 1, attemptsAllowed: 1, timeLimitSeconds: 600, bands: [] }
    const graded = gradeAttempts(settings, key, [
      timed(1, 1000, 1600), // exactly the limit
      timed(2, 1000, 1601),
      timed(3, null, 1601, 1600), // no start: past the deadline CROWDAQ set
      timed(4, null, 1599, 1600),
      timed(5, null, null, 1600), // no end, or no times at all: nothing to check
      timed(6, null, 5000),
    ])
    expect(graded.map((g) => [g.workerId, g.durationSeconds, g.flags, g.passed])).toEqual([
      ['W1', 600, [], true],
      ['W2', 601, ['over-time'], true],
      ['W3', null, ['over-time'], true],
      ['W4', null, [], true],
      ['W5', null, [], true],
      ['W6', null, [], true],
    ])
    // The setting decides: a longer limit lets the same attempt stand.
    const longer = gradeAttempts({ ...settings, timeLimitSeconds: 601 }, key, [
      timed(2, 1000, 1601),
    ])
    expect(longer[0]?.flags).toEqual([])
    // An over-time pass does not stand, so a later attempt is not after a pass.
    const again = gradeAttempts({ ...settings, attemptsAllowed: 2 }, key, [
      { ...timed(7, 0, 700), workerId: 'W' },
      { ...timed(8, 800, 900), workerId: 'W' },
    ])
    expect(again.map((g) => g.flags)).toEqual([['over-time'], []])
    expect(standingAttempts(again).get('W')?.id).toBe(8)
  })

  it('maps grades to bands: 100% main, ≥ 70% warm-up, below none', () => {
    const bands = defaultBands('Q')
    expect(bandFor(bands, 1)?.name).toBe('main task')
    expect(bandFor(bands, 0.7)?.name).toBe('warm-up')
    expect(bandFor(bands, 7 / 10)?.name).toBe('warm-up')
    expect(bandFor(bands, 0.69)).toBeNull()
  })
})

describe('exam report', () => {
  it('flags planted bad questions in a generated cohort by discrimination', () => {
    // 200 workers of skill 0–1 answer 10 questions; q9's key is wrong, q10 is a coin toss.
    let seed = 7
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const questions = Array.from({ length: 10 }, (_, i) => ({
      questionId: `q${i + 1}`,
      answer: i === 8 ? 'B' : 'A',
      enabled: true,
    }))
    const key = new Map(questions.map((q) => [q.questionId, q.answer]))
    const attempts: AttemptInput[] = Array.from({ length: 200 }, (_, w) => {
      const skill = w / 199
      const answers: Record<string, string> = {}
      for (const q of questions) {
        const knows = random() < skill
        answers[q.questionId] =
          q.questionId === 'q10'
            ? random() < 0.5
              ? 'A'
              : 'B'
            : knows
              ? 'A'
              : random() < 0.5
                ? 'B'
                : 'C'
      }
      return {
        id: w + 1,
        workerId: `W${w}`,
        completedAt: w,
        startedAt: null,
        deadline: null,
        order: 0,
        shown: questions.map((q) => q.questionId),
        answers,
      }
    })
    const graded = gradeAttempts(
      { passingGrade: 1, attemptsAllowed: 1, timeLimitSeconds: 600, bands: [] },
      key,
      attempts,
    )
    const report = examReport(
      questions,
      graded,
      attempts.map((a) => ({ attemptId: a.id, shown: a.shown, answers: a.answers })),
    )
    const revise = report.questions.filter((q) => q.revise).map((q) => q.questionId)
    expect(revise).toContain('q9')
    expect(revise).not.toContain('q1')
    const d = new Map(report.questions.map((q) => [q.questionId, q.discrimination ?? 0]))
    expect(d.get('q9')).toBeLessThan(0)
    expect(d.get('q1')).toBeGreaterThan(0.5)
    expect(Math.abs(d.get('q10') ?? 1)).toBeLessThan(d.get('q1') ?? 0)
  })

  it('computes upper-minus-lower 27% by hand on a small cohort', () => {
    const questions = [
      { questionId: 'q1', answer: 'A', enabled: true },
      { questionId: 'q2', answer: 'A', enabled: true },
    ]
    const answers = [
      { attemptId: 1, shown: ['q1', 'q2'], answers: { q1: 'A', q2: 'A' } },
      { attemptId: 2, shown: ['q1', 'q2'], answers: { q1: 'A', q2: 'B' } },
      { attemptId: 3, shown: ['q1', 'q2'], answers: { q1: 'B', q2: 'A' } },
      { attemptId: 4, shown: ['q1', 'q2'], answers: { q1: 'B', q2: 'B' } },
    ]
    const graded = gradeAttempts(
      { passingGrade: 1, attemptsAllowed: 9, timeLimitSeconds: 600, bands: [] },
      new Map([
        ['q1', 'A'],
        ['q2', 'A'],
      ]),
      answers.map((a) => ({
        id: a.attemptId,
        workerId: `W${a.attemptId}`,
        completedAt: 0,
        startedAt: null,
        deadline: null,
        order: 0,
        ...a,
      })),
    )
    const r = examReport(questions, graded, answers)
    // Groups of round(4 × 0.27) = 1: upper = attempt 1 (100%), lower = attempt 4 (0%).
    expect(r.questions.map((q) => [q.questionId, q.shareCorrect, q.discrimination])).toEqual([
      ['q1', 0.5, 1],
      ['q2', 0.5, 1],
    ])
    expect(r.grades).toEqual({ '0': 1, '50': 2, '100': 1 })
  })
})

describe('safe rendering', () => {
  it('drops scripts, handlers, remote images and javascript links from HTML contexts', () => {
    const html = safeHtml(
      '<p onclick="x()" style="color:red">Hi<script>alert(1)</script><img src="https://t.example/p.gif"><img src=x onerror=alert(1)><a href="javascript:alert(1)">l</a><iframe src="https://e.example"></iframe></p><svg onload=alert(1)></svg>',
    )
    expect(html).toBe('<p>Hi<a>l</a></p>')
  })

  it('renders Markdown without its raw HTML', () => {
    const html = markdownHtml(
      '# T\n\n**b** <script>alert(1)</script>\n\n![x](https://t.example/p.gif) [ok](https://crowdaq.com)',
    )
    expect(html).not.toMatch(/<script|<img|onerror/)
    expect(html).toContain('<h1>T</h1>')
    expect(html).toContain('<strong>b</strong> &lt;script&gt;')
    expect(html).toContain('<a href="https://crowdaq.com">ok</a>')
  })
})

describe('safe nodes', () => {
  it('hands the page a tree of allowed elements only', () => {
    expect(
      safeNodes(
        '<p onclick="x()">About <b>40 %</b><script>alert(1)</script><img src="https://t.example/p.gif"></p>',
      ),
    ).toEqual([
      { tag: 'p', attrs: {}, children: ['About ', { tag: 'b', attrs: {}, children: ['40 %'] }] },
    ])
    expect(markdownNodes('[x](javascript:alert(1)) &lt;b&gt;')).toEqual([
      { tag: 'p', attrs: {}, children: ['[x](javascript:alert(1)) <b>'] },
      '\n',
    ])
  })
})
