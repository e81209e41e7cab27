import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import {
  currentQueue,
  markAnnotation,
  markReviewed,
  queueFeedback,
  sampleSize,
  startQueue,
} from '../../src/main/triage/queue'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from './fixture'

const subs: Sub[] = [
  ...Array.from({ length: 40 }, (_, i): Sub => ({
    worker: 'BUSY',
    at: `2019-09-05T${String(8 + (i % 10)).padStart(2, '0')}:${String(i).padStart(2, '0')}`,
    dims: [1, 2],
  })),
  { worker: 'QUIET', at: '2019-09-05', dims: [1, 6, 7] },
  { worker: 'QUIET', at: '2019-09-04', dims: [1] },
]

describe('the triage queue', () => {
  const tempDir = useTempDir()

  it('takes a share of each worker, at least one', () => {
    expect(sampleSize(40, 0.05)).toBe(2)
    expect(sampleSize(1, 0.05)).toBe(1)
    expect(sampleSize(3, 1)).toBe(3)
    const db = projectWith(tempDir(), subs)
    const queue = startQueue(db, { from: '2019-09-05', to: '2019-09-05', author: 't', seed: 7 })
    expect(queue.items.map((i) => i.workerId)).toEqual(['BUSY', 'BUSY', 'QUIET'])
    expect(queue.share).toBe(0.05)
    expect(queue.next).toBe(1)
    // The same seed draws the same submissions.
    const again = startQueue(db, { from: '2019-09-05', to: '2019-09-05', author: 't', seed: 7 })
    expect(again.items.map((i) => i.submissionId)).toEqual(queue.items.map((i) => i.submissionId))
    db.close()
  })

  it('resumes after the project is reopened, with marks, notes and feedback', () => {
    const dir = tempDir()
    let db = projectWith(dir, subs)
    const queue = startQueue(db, { from: '2019-09-05', to: '2019-09-05', author: 't', seed: 3 })
    const first = queue.items[0]
    const annotation = first?.annotationIds[0] as number
    markAnnotation(db, {
      queueId: queue.id,
      annotationId: annotation,
      mark: 'needs-work',
      note: 'vague',
      author: 't',
    })
    queueFeedback(db, {
      queueId: queue.id,
      position: 1,
      feedback: 'Please fill more dimensions.',
      author: 't',
    })
    markReviewed(db, { queueId: queue.id, position: 1, reviewed: true, author: 't' })
    db.close()

    db = openProject(join(dir, 'triage.winnow'))
    const resumed = currentQueue(db)
    expect(resumed?.id).toBe(queue.id)
    expect(resumed?.next).toBe(2)
    expect(resumed?.items[0]).toMatchObject({
      feedback: 'Please fill more dimensions.',
      marks: [{ annotationId: annotation, mark: 'needs-work', note: 'vague' }],
    })
    expect(resumed?.items[0]?.reviewedAt).not.toBeNull()
    // The last item reviewed finishes the queue; nothing is left to resume.
    markReviewed(db, { queueId: queue.id, position: 2, reviewed: true, author: 't' })
    const done = markReviewed(db, { queueId: queue.id, position: 3, reviewed: true, author: 't' })
    expect(done.finishedAt).not.toBeNull()
    expect(currentQueue(db)).toBeNull()
    db.close()
  })

  it('refuses an annotation that is not queued and an empty range, changing nothing', () => {
    const db = projectWith(tempDir(), subs)
    const queue = startQueue(db, { from: '2019-09-04', to: '2019-09-04', author: 't', seed: 1 })
    expect(() =>
      markAnnotation(db, { queueId: queue.id, annotationId: 999_999, mark: 'bad', author: 't' }),
    ).toThrow(/not in triage queue/)
    expect(currentQueue(db)?.items[0]?.marks).toEqual([])
    expect(() => startQueue(db, { from: '2020-01-01', to: '2020-01-02', author: 't' })).toThrow(
      /No submissions from 2020-01-01 to 2020-01-02/,
    )
    expect(currentQueue(db)?.id).toBe(queue.id)
    db.close()
  })
})
