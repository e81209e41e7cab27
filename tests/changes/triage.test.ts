import { describe, expect, it } from 'vitest'
import { history } from '../../src/main/ratings/history'
import { redo, revertChangeSet, undo, undoState } from '../../src/main/ratings/revert'
import {
  markAnnotation,
  markReviewed,
  queueFeedback,
  startQueue,
} from '../../src/main/triage/queue'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from '../triage/fixture'
import { changeSetsAfter, lastChangeSetId } from './record'

const subs: Sub[] = [
  { worker: 'ANN', at: '2019-09-05', dims: [1, 2, 3] },
  { worker: 'BOB', at: '2019-09-05', dims: [1, 6] },
]

function queueProject(dir: string) {
  const db = projectWith(dir, subs)
  const queue = startQueue(db, {
    from: '2019-09-05',
    to: '2019-09-05',
    share: 1,
    seed: 4,
    author: 'lee',
  })
  const item = queue.items[0]
  if (!item) throw new Error('empty queue')
  return { db, queue, item, annotation: item.annotationIds[0] as number }
}

describe('triage writes are change sets', () => {
  const tempDir = useTempDir()

  it('a queue is a change set of its own, with its author and time, that cannot be reverted', () => {
    const db = projectWith(tempDir(), subs)
    const before = lastChangeSetId(db)
    const t0 = Date.now()
    const queue = startQueue(db, {
      from: '2019-09-05',
      to: '2019-09-05',
      share: 1,
      seed: 4,
      author: 'lee',
    })
    const [made] = changeSetsAfter(db, before)
    expect(made).toMatchObject({ kind: 'triage', author: 'lee', entries: [] })
    expect(made?.at).toBeGreaterThanOrEqual(t0)
    expect(made?.uid).toMatch(/^[0-9a-f]{32}$/)
    expect(made?.description).toBe(
      "Triage queue of 2019-09-05: 2 submissions (100 % of each worker's, seed 4)",
    )
    // The queue and its items name the change set that made them.
    expect(
      db.prepare('SELECT change_set_id, created_at FROM triage_queues WHERE id = ?').get(queue.id),
    ).toEqual({ change_set_id: made?.id, created_at: made?.at })
    expect(history(db)[0]).toMatchObject({ id: made?.id, kind: 'triage', revertable: false })
    expect(() => revertChangeSet(db, made?.id ?? 0, { author: 'lee' })).toThrow(
      /only added what it made; it cannot be reverted/,
    )
    db.close()
  })

  it('a mark is a change set with its queue, annotation, mark and note; undo puts back the mark before', () => {
    const { db, queue, item, annotation } = queueProject(tempDir())
    const before = lastChangeSetId(db)
    markAnnotation(db, { queueId: queue.id, annotationId: annotation, mark: 'good', author: 'ann' })
    const marked = markAnnotation(db, {
      queueId: queue.id,
      annotationId: annotation,
      mark: 'bad',
      note: 'vague',
      author: 'ann',
    })
    expect(marked.items[0]?.marks).toEqual([
      { annotationId: annotation, mark: 'bad', note: 'vague' },
    ])
    const sets = changeSetsAfter(db, before)
    expect(sets.map((s) => [s.kind, s.author, s.description])).toEqual([
      [
        'triage',
        'ann',
        `Marked good: submission ${item.submissionId}, dimension 1 (triage queue ${queue.id})`,
      ],
      [
        'triage',
        'ann',
        `Marked bad: submission ${item.submissionId}, dimension 1 (triage queue ${queue.id}), note “vague”`,
      ],
    ])
    expect(sets[1]?.entries).toEqual([
      {
        subject: 'triage.mark',
        key: { queue: queue.id, annotation },
        value: { mark: 'bad', note: 'vague' },
      },
    ])
    // The same mark again records nothing.
    markAnnotation(db, { queueId: queue.id, annotationId: annotation, mark: 'bad', author: 'ann' })
    expect(changeSetsAfter(db, before)).toHaveLength(2)

    expect(undoState(db).undo?.id).toBe(sets[1]?.id)
    const undone = undo(db, 'ann')
    expect(undone).toMatchObject({ preview: false, changed: 0, rows: 1 })
    const marks = () => db.prepare('SELECT annotation_id, mark, note FROM triage_marks').all()
    expect(marks()).toEqual([{ annotation_id: annotation, mark: 'good', note: '' }])
    undo(db, 'ann')
    expect(marks()).toEqual([])
    // Redo makes the marks again, in order.
    redo(db, 'ann')
    expect(marks()).toEqual([{ annotation_id: annotation, mark: 'good', note: '' }])
    redo(db, 'ann')
    expect(marks()).toEqual([{ annotation_id: annotation, mark: 'bad', note: 'vague' }])
    // History says what each undo and redo did, by the mark it acted on.
    expect(history(db, { limit: 4 }).map((c) => c.description)).toEqual([
      `Redo #${sets[1]?.id}: ${sets[1]?.description}`,
      `Redo #${sets[0]?.id}: ${sets[0]?.description}`,
      `Undo #${sets[0]?.id}: ${sets[0]?.description}`,
      `Undo #${sets[1]?.id}: ${sets[1]?.description}`,
    ])
    // Rows are only added: every mark ever made is still there.
    expect(
      db.prepare("SELECT count(*) FROM change_entries WHERE subject = 'triage.mark'").pluck().get(),
    ).toBe(6)
    db.close()
  })

  it('undo takes the last mark back, not the review or feedback that came after it', () => {
    const { db, queue, item, annotation } = queueProject(tempDir())
    markAnnotation(db, {
      queueId: queue.id,
      annotationId: annotation,
      mark: 'needs-work',
      author: 'ann',
    })
    queueFeedback(db, {
      queueId: queue.id,
      position: item.position,
      feedback: 'More, please.',
      author: 'ann',
    })
    markReviewed(db, { queueId: queue.id, position: item.position, reviewed: true, author: 'ann' })
    undo(db, 'ann')
    const row = db
      .prepare('SELECT feedback, reviewed_at FROM triage_items WHERE queue_id = ? AND position = ?')
      .get(queue.id, item.position) as { feedback: string; reviewed_at: number | null }
    expect(db.prepare('SELECT count(*) FROM triage_marks').pluck().get()).toBe(0)
    expect(row.feedback).toBe('More, please.')
    expect(row.reviewed_at).not.toBeNull()
    db.close()
  })

  it('feedback and reviews are change sets, and reverting one puts back what it replaced', () => {
    const { db, queue, item } = queueProject(tempDir())
    const before = lastChangeSetId(db)
    const at = { queueId: queue.id, position: item.position, author: 'kim' }
    queueFeedback(db, { ...at, feedback: 'First.' })
    queueFeedback(db, { ...at, feedback: 'Second.' })
    markReviewed(db, { ...at, reviewed: true })
    const sets = changeSetsAfter(db, before)
    expect(sets.map((s) => s.entries)).toEqual([
      [
        {
          subject: 'triage.feedback',
          key: { queue: queue.id, position: item.position },
          value: 'First.',
        },
      ],
      [
        {
          subject: 'triage.feedback',
          key: { queue: queue.id, position: item.position },
          value: 'Second.',
        },
      ],
      [
        {
          subject: 'triage.reviewed',
          key: { queue: queue.id, position: item.position },
          value: sets[2]?.at,
        },
      ],
    ])
    const state = () =>
      db
        .prepare(
          `SELECT i.feedback, i.reviewed_at AS reviewedAt, q.finished_at AS finishedAt
           FROM triage_items i JOIN triage_queues q ON q.id = i.queue_id
           WHERE i.queue_id = ? AND i.position = ?`,
        )
        .get(queue.id, item.position)
    expect(state()).toEqual({ feedback: 'Second.', reviewedAt: sets[2]?.at, finishedAt: null })

    revertChangeSet(db, sets[2]?.id ?? 0, { author: 'kim' })
    revertChangeSet(db, sets[1]?.id ?? 0, { author: 'kim' })
    expect(state()).toEqual({ feedback: 'First.', reviewedAt: null, finishedAt: null })
    // Feedback and reviews are reverted from History, not by Ctrl+Z.
    expect(undoState(db).undo).toBeNull()
    db.close()
  })

  it('a revert of a change that a later one replaced changes nothing until that one is reverted too', () => {
    const { db, queue, annotation } = queueProject(tempDir())
    const before = lastChangeSetId(db)
    const mark = (m: 'good' | 'bad') =>
      markAnnotation(db, { queueId: queue.id, annotationId: annotation, mark: m, author: 'ann' })
    mark('good')
    mark('bad')
    const [good, bad] = changeSetsAfter(db, before)
    const marks = () => db.prepare('SELECT mark FROM triage_marks').pluck().all()
    expect(revertChangeSet(db, good?.id ?? 0, { author: 'ann', preview: true })).toMatchObject({
      preview: true,
      rows: 0,
    })
    expect(revertChangeSet(db, good?.id ?? 0, { author: 'ann' }).rows).toBe(0)
    expect(marks()).toEqual(['bad'])
    revertChangeSet(db, bad?.id ?? 0, { author: 'ann' })
    expect(marks()).toEqual([])
    db.close()
  })
  it('undo goes back past a hundred marks undone, one mark at a time', () => {
    const { db, queue, annotation } = queueProject(tempDir())
    const marks = ['good', 'needs-work', 'bad'] as const
    for (let i = 0; i < 105; i++)
      markAnnotation(db, {
        queueId: queue.id,
        annotationId: annotation,
        mark: marks[i % 3] ?? 'good',
        author: 'ann',
      })
    for (let i = 0; i < 101; i++) undo(db, 'ann')
    // Left: the first four marks; the fourth (i = 3) is good.
    expect(db.prepare('SELECT mark FROM triage_marks').pluck().all()).toEqual(['good'])
    for (let i = 0; i < 4; i++) undo(db, 'ann')
    expect(db.prepare('SELECT count(*) FROM triage_marks').pluck().get()).toBe(0)
    expect(undo(db, 'ann')).toBeNull()
    db.close()
  })
})
