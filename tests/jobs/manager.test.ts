import { describe, expect, it } from 'vitest'
import type { JobProgress } from '../../src/shared/contract/jobs'
import { JobManager } from '../../src/main/jobs/manager'
import { describeAdded, describePull } from '../../src/shared/summaries'

function manager(): { jobs: JobManager; seen: JobProgress[] } {
  const seen: JobProgress[] = []
  return { jobs: new JobManager((p) => seen.push(p)), seen }
}

describe('progress reports', () => {
  it('are held back within the interval, but a new step, or a new effect of cancelling, is shown at once', async () => {
    const { jobs, seen } = manager()
    let release = (): void => undefined
    const started = jobs.start({
      kind: 'import',
      title: 'Importing a.csv',
      unit: 'bytes',
      run: async (context) => {
        // Back to back, well within the 100 ms interval.
        context.report({ done: 1, total: 10, detail: 'a.csv' })
        context.report({ done: 2, total: 10, detail: 'a.csv' })
        context.report({ done: 10, total: 10, detail: 'Building indexes (1 of 2)', newStep: true })
        context.report({ done: 10, total: 10, detail: 'Building indexes (2 of 2)', newStep: true })
        context.report({
          done: 0,
          total: 5,
          unit: 'annotations',
          detail: 'Indexing text for search',
          cancel: { label: 'Stop indexing', hint: 'The rows stay' },
        })
        context.report({ done: 1, total: 5 })
        await new Promise<void>((resolve) => (release = resolve))
        return null
      },
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    const running = seen.filter((p) => p.id === started.id && p.state === 'running')
    expect(running.map((p) => [p.done, p.detail, p.cancel.label])).toEqual([
      [0, '', 'Cancel'],
      [1, 'a.csv', 'Cancel'],
      [10, 'Building indexes (1 of 2)', 'Cancel'],
      [10, 'Building indexes (2 of 2)', 'Cancel'],
      [0, 'Indexing text for search', 'Stop indexing'],
    ])
    release()
    await jobs.idle()
  })
})

describe('a job’s last line', () => {
  it('says what the job did once it succeeded, instead of its last step', async () => {
    const { jobs, seen } = manager()
    const started = jobs.start({
      kind: 'import',
      title: 'Importing a.csv',
      unit: 'bytes',
      run: (context) => {
        context.report({ done: 10, total: 10, detail: 'Indexing text for search' })
        return Promise.resolve({ submissions: 4000, annotations: 1 })
      },
      summary: describeAdded,
    })
    await jobs.idle()
    const last = jobs.get(started.id)
    expect(last?.state).toBe('succeeded')
    expect(last?.detail).toBe('Added 4,000 submissions and 1 annotation.')
    expect(seen.at(-1)?.detail).toBe(last?.detail)
  })

  it('leaves no step behind when the job has nothing to say', async () => {
    const { jobs } = manager()
    const started = jobs.start({
      kind: 'index',
      title: 'Indexing',
      unit: 'annotations',
      run: (context) => {
        context.report({ done: 1, detail: 'Indexing text for search' })
        return Promise.resolve(null)
      },
    })
    await jobs.idle()
    expect(jobs.get(started.id)?.detail).toBe('')
  })

  it('keeps the step it failed in', async () => {
    const { jobs } = manager()
    const started = jobs.start({
      kind: 'import',
      title: 'Importing',
      unit: 'bytes',
      run: (context) => {
        context.report({ done: 1, detail: 'b.csv' })
        return Promise.reject(new Error('disk full'))
      },
      summary: () => 'never',
    })
    await jobs.idle()
    const last = jobs.get(started.id)
    expect(last?.state).toBe('failed')
    expect(last?.detail).toBe('b.csv')
  })
})

describe('jobs in turn', () => {
  /** A job that runs until `finish` is called, logging when it starts. */
  function held(log: string[], name: string) {
    let finish = (): void => undefined
    const spec = {
      kind: 'import' as const,
      title: `Importing ${name}`,
      unit: 'bytes',
      run: () =>
        new Promise<string>((resolve) => {
          log.push(`start ${name}`)
          finish = () => {
            log.push(`end ${name}`)
            resolve(name)
          }
        }),
    }
    return { spec, finish: () => finish() }
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10))

  it('runs one job at a time, in the order they were started, and says what a job waits for', async () => {
    const { jobs } = manager()
    const log: string[] = []
    const a = held(log, 'a.csv')
    const b = held(log, 'b.csv')
    jobs.start(a.spec)
    const second = jobs.start(b.spec)
    expect(second.detail).toBe('After importing a.csv')
    await settle()
    expect(log).toEqual(['start a.csv'])
    a.finish()
    await settle()
    expect(log).toEqual(['start a.csv', 'end a.csv', 'start b.csv'])
    expect(jobs.get(second.id)?.detail).toBe('')
    b.finish()
    await jobs.idle()
    expect(jobs.get(second.id)?.state).toBe('succeeded')
  })

  it('cancels a waiting job at once, without running it, and keeps the next one waiting', async () => {
    const { jobs } = manager()
    const log: string[] = []
    const a = held(log, 'a')
    const b = held(log, 'b')
    const c = held(log, 'c')
    jobs.start(a.spec)
    const waiting = jobs.start(b.spec)
    jobs.start(c.spec)
    expect(jobs.cancel(waiting.id)).toBe(true)
    await settle()
    expect(jobs.get(waiting.id)?.state).toBe('cancelled')
    expect(log).toEqual(['start a'])
    a.finish()
    await settle()
    c.finish()
    await jobs.idle()
    expect(log).toEqual(['start a', 'end a', 'start c', 'end c'])
  })

  it('goes on after a job that failed', async () => {
    const { jobs } = manager()
    jobs.start({
      kind: 'import',
      title: 'broken.csv',
      unit: 'bytes',
      run: () => Promise.reject(new Error('broken')),
    })
    const next = jobs.start({
      kind: 'index',
      title: 'Indexing',
      unit: 'annotations',
      run: () => Promise.resolve(1),
    })
    await jobs.idle()
    expect(jobs.get(next.id)?.state).toBe('succeeded')
  })
})

describe('summaries in words', () => {
  it('names an import that added nothing as such', () => {
    expect(describeAdded({ submissions: 0, annotations: 0 })).toBe(
      'Nothing new: all of it was in the project already.',
    )
    expect(describeAdded({ submissions: 1, annotations: 12_345 })).toBe(
      'Added 1 submission and 12,345 annotations.',
    )
  })

  it('tells a file with only its header from one already imported', () => {
    const nothing = { submissions: 0, annotations: 0 }
    expect(describeAdded({ ...nothing, files: [{ records: 0 }] })).toBe(
      'Nothing was added: the file holds no rows, only its header.',
    )
    expect(describeAdded({ ...nothing, files: [{ records: 0 }, { records: 0 }] })).toBe(
      'Nothing was added: the files hold no rows, only their headers.',
    )
    expect(describeAdded({ ...nothing, files: [{ records: 0 }, { records: 12 }] })).toBe(
      'Nothing new: all of it was in the project already.',
    )
  })

  it('lists only the parts of a pull that happened', () => {
    const pull = {
      pullId: 1,
      hits: 1,
      assignments: 1200,
      new: 40,
      updated: 1,
      skipped: 0,
      gone: 0,
      nearDisposal: 0,
      resumed: false,
    }
    expect(describePull(pull)).toBe('1 HIT: 1,200 assignments fetched, 40 new, 1 status change.')
    expect(describePull({ ...pull, hits: 3, skipped: 2, gone: 1, resumed: true })).toBe(
      'Resumed the interrupted pull. 3 HITs: 1,200 assignments fetched, 40 new, 1 status change, ' +
        '2 HITs unchanged (not fetched), 1 HIT no longer on MTurk.',
    )
  })
})

describe('work in the jobs’ turn', () => {
  it('waits for the job running before it, and the job started after it waits for it', async () => {
    const { jobs } = manager()
    const order: string[] = []
    let releaseImport = (): void => undefined
    jobs.start({
      kind: 'import',
      title: 'Importing a.csv',
      unit: 'bytes',
      run: async () => {
        order.push('import starts')
        await new Promise<void>((resolve) => (releaseImport = resolve))
        order.push('import ends')
        return null
      },
    })
    let releasePull = (): void => undefined
    const pull = jobs.inTurn(async () => {
      order.push('pull starts')
      await new Promise<void>((resolve) => (releasePull = resolve))
      order.push('pull ends')
      return 'pulled'
    })
    const rating = jobs.launch({
      kind: 'rate',
      title: 'Rating 20,000 annotations',
      unit: 'annotations',
      run: () => {
        order.push('rating runs')
        return Promise.resolve(null)
      },
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual(['import starts'])
    releaseImport()
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual(['import starts', 'import ends', 'pull starts'])
    releasePull()
    expect(await pull).toBe('pulled')
    await rating.result
    expect(order).toEqual([
      'import starts',
      'import ends',
      'pull starts',
      'pull ends',
      'rating runs',
    ])
    // Not a job: nothing of it is listed.
    expect(jobs.list().map((j) => j.kind)).toEqual(['import', 'rate'])
  })

  it('runs between the steps of a job that yields (search indexing), not after it', async () => {
    const { jobs } = manager()
    let steps = 0
    let finish = false
    jobs.start({
      kind: 'index',
      title: 'Indexing text for search',
      unit: 'annotations',
      yields: true,
      run: async () => {
        while (!finish) {
          steps++
          await new Promise((resolve) => setImmediate(resolve))
        }
        return null
      },
    })
    // Waiting for the whole job would never end: the job ends only after the pull.
    const stateWhenPulled = await jobs.inTurn(() => Promise.resolve(jobs.list()[0]?.state))
    expect(stateWhenPulled).toBe('running')
    finish = true
    await jobs.idle()
    expect(steps).toBeGreaterThan(0)
    expect(jobs.list()[0]?.state).toBe('succeeded')
  })
})
