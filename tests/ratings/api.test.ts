import { describe, expect, it } from 'vitest'
import { dispatch } from '../../src/main/api/dispatch'
import { Session } from '../../src/main/session'
import { useTempDir } from '../helpers/tmp'
import { workerA1Project } from './helpers'

describe('ratings calls', () => {
  const tempDir = useTempDir()

  function open() {
    const { path, workerId: w } = workerA1Project(tempDir())
    const events: string[] = []
    const session = new Session('cli', (name, payload) =>
      events.push(`${name}:${(payload as { reason?: string } | null)?.reason ?? ''}`),
    )
    session.open(path)
    events.length = 0
    const call = async (name: string, args: unknown) => {
      const outcome = await dispatch(name, args, { session })
      if (!outcome.ok)
        throw Object.assign(new Error(outcome.error.message), { info: outcome.error })
      return outcome.value as never
    }
    return { session, events, call, w }
  }

  it('previews, applies, undoes and redoes a worker rating, telling the page', async () => {
    const { session, events, call, w } = open()
    const preview = await call('ratings.rateWorker', {
      workerId: w,
      rating: 3,
      from: '2019-09-03',
      preview: true,
    })
    expect(preview).toMatchObject({
      preview: true,
      changed: 2,
      transitions: [{ from: -1, to: 3, count: 2 }],
    })
    expect(events).toEqual([])
    const applied = await call('ratings.rateWorker', {
      workerId: w,
      rating: 3,
      from: '2019-09-03',
      note: 'promoted',
    })
    expect(applied).toMatchObject({ preview: false, changed: 2 })
    expect(events).toEqual(['project.changed:data'])
    const timeline: {
      ratings: { value: number; commitDate: string; note: string }[]
      steps: unknown[]
      volume: unknown[]
    } = await call('ratings.workerTimeline', { workerId: w })
    expect(timeline.ratings[0]).toMatchObject({ value: 2, commitDate: '2019-09-10' })
    expect(timeline.ratings[1]).toMatchObject({
      value: 3,
      commitDate: '2019-09-03',
      note: 'promoted',
    })
    expect(timeline.steps).toEqual([
      { from: null, until: '2019-09-01', value: null },
      { from: '2019-09-01', until: '2019-09-03', value: -1 },
      { from: '2019-09-03', until: '2019-09-10', value: 3 },
      { from: '2019-09-10', until: null, value: 2 },
    ])
    expect(timeline.volume).toEqual([
      { day: '2019-09-01', submissions: 1, annotations: 2, byRating: { '-1': 2 } },
      { day: '2019-09-03', submissions: 1, annotations: 2, byRating: { '3': 2 } },
      { day: '2019-09-10', submissions: 1, annotations: 2, byRating: { '2': 2 } },
    ])
    const state: { undo: { id: number } | null } = await call('ratings.undoState', {})
    expect(state.undo?.id).toBe((applied as { changeSet: number }).changeSet)
    expect(await call('ratings.undo', {})).toMatchObject({
      changed: 2,
      transitions: [{ from: 3, to: -1, count: 2 }],
    })
    expect(await call('ratings.redo', {})).toMatchObject({
      changed: 2,
      transitions: [{ from: -1, to: 3, count: 2 }],
    })
    const { changeSets }: { changeSets: { kind: string }[] } = await call('ratings.history', {})
    expect(changeSets.map((c) => c.kind)).toEqual(['revert', 'revert', 'manual', 'import'])
    session.close()
  })

  it('counts by rating now and as of a moment', async () => {
    const { session, call, w } = open()
    const before = Date.now()
    await call('ratings.rateItems', { submissionIds: [1], rating: 1.5 })
    expect(await call('ratings.counts', {})).toMatchObject({
      asOf: null,
      byRating: { '2': 2, '1.5': 2, '-1': 2 },
    })
    expect(await call('ratings.counts', { asOf: before - 1 })).toMatchObject({
      byRating: { '2': 2, '-1': 4 },
    })
    void w
    session.close()
  })

  it('rates a whole query as one bulk change set', async () => {
    const { session, call } = open()
    const args = { filter: { dimensions: [2], from: '2019-09-02' }, rating: 0 }
    expect(await call('ratings.rateQuery', { ...args, preview: true })).toMatchObject({
      preview: true,
      rows: 2,
      changed: 2,
      transitions: [
        { from: 2, to: 0, count: 1 },
        { from: -1, to: 0, count: 1 },
      ],
    })
    const applied: { changeSet: number } = await call('ratings.rateQuery', args)
    const { changeSets }: { changeSets: { id: number; kind: string; changed: number }[] } =
      await call('ratings.history', { limit: 1 })
    expect(changeSets).toEqual([
      expect.objectContaining({ id: applied.changeSet, kind: 'bulk', changed: 2 }),
    ])
    await expect(
      call('ratings.rateQuery', { filter: { dimensions: [11] }, rating: 0 }),
    ).rejects.toThrow(/dimensions/)
    session.close()
  })

  it('keeps the scale editable but never drops a value in use', async () => {
    const { session, call } = open()
    const scale: { value: number }[] = await call('ratings.scale', {})
    expect(scale.map((l) => l.value)).toEqual([3, 2, 1.5, 1, 0, -1, -2])
    const smaller = scale.filter((l) => l.value !== -2)
    expect(
      ((await call('ratings.setScale', { scale: smaller })) as { value: number }[]).length,
    ).toBe(6)
    await expect(
      call('ratings.setScale', { scale: smaller.filter((l) => l.value !== 2) }),
    ).rejects.toThrow(/still in use/)
    await expect(call('ratings.setScale', { scale: [...smaller, smaller[0]] })).rejects.toThrow(
      /only once/,
    )
    await expect(call('ratings.rateItems', { annotationIds: [1], rating: -2 })).rejects.toThrow(
      /not on this project's rating scale/,
    )
    await expect(
      call('ratings.rateWorker', { workerId: 1, rating: 2, from: '2019-13-01' }),
    ).rejects.toThrow(/not a date/)
    await expect(call('ratings.rateItems', { rating: 2 })).rejects.toThrow(/at least one/)
    session.close()
  })
})
