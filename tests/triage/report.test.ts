import { describe, expect, it } from 'vitest'
import { saveTriageSettings, triageSettings } from '../../src/main/triage/settings'
import { defaultRange, median, triageReport } from '../../src/main/triage/report'
import { startQueue } from '../../src/main/triage/queue'
import { cli } from '../helpers/cli'
import { useTempDir } from '../helpers/tmp'
import { type Sub, projectWith } from './fixture'

/** A generated day (2019-09-05) with figures worked out by hand below. */
const DAY: Sub[] = [
  // ALPHA: first seen this day; 3 submissions of 3, 1 and 2 dimensions; work 100, 300, 200 s.
  { worker: 'ALPHA', at: '2019-09-05T08:00', dims: [1, 2, 6], work: 100 },
  { worker: 'ALPHA', at: '2019-09-05T09:00', dims: [1], work: 300 },
  { worker: 'ALPHA', at: '2019-09-05T23:59', dims: [1, 6], work: 200 },
  // BRAVO: seen a month earlier; today 2 submissions of 4 and 6 dimensions, one accept time.
  { worker: 'BRAVO', at: '2019-08-01', dims: [1, 2] },
  { worker: 'BRAVO', at: '2019-09-05T00:00', dims: [1, 3, 6, 7], work: 600 },
  { worker: 'BRAVO', at: '2019-09-05T12:00', dims: [1, 2, 3, 4, 6, 7] },
  // CHARLIE: only the next day.
  { worker: 'CHARLIE', at: '2019-09-06', dims: [1, 2, 3], work: 50 },
]

describe('the Today figures', () => {
  const tempDir = useTempDir()

  it('match the hand-computed figures of a generated day', () => {
    const db = projectWith(tempDir(), DAY)
    const report = triageReport(db, { from: '2019-09-05', to: '2019-09-05' })
    expect(report.workers.map((w) => w.workerId)).toEqual(['ALPHA', 'BRAVO'])
    const [alpha, bravo] = report.workers
    expect(alpha).toMatchObject({
      submissions: 3,
      avgDimensions: 2,
      medianWorkSeconds: 200,
      minimalShare: 2 / 3,
      flags: ['rushing', 'new'],
    })
    // dimension 1: 3, 2: 1, 6: 2 of 6 annotations
    expect(alpha?.dimensionProfile).toEqual([0.5, 1 / 6, 0, 0, 0, 1 / 3, 0, 0, 0, 0])
    expect(bravo).toMatchObject({
      submissions: 2,
      avgDimensions: 5,
      medianWorkSeconds: 600,
      minimalShare: 0,
      flags: [],
    })
    // crowd: dims 1: 5, 2: 2, 3: 2, 4: 1, 6: 4, 7: 2 of 16
    expect(report.crowdProfile).toEqual([5, 2, 2, 1, 0, 4, 2, 0, 0, 0].map((n) => n / 16))
    db.close()
  })

  it('leave the work time empty without accept times, and flag by the settings', () => {
    const db = projectWith(tempDir(), DAY)
    const day6 = triageReport(db, { from: '2019-09-06', to: '2019-09-06' })
    expect(day6.workers).toMatchObject([
      { workerId: 'CHARLIE', medianWorkSeconds: 50, flags: ['rushing', 'new'] },
    ])
    saveTriageSettings(db, { ...triageSettings(db), rushSeconds: 10, newWorkerDays: 0 }, 't')
    expect(triageReport(db, { from: '2019-09-06', to: '2019-09-06' }).workers[0]?.flags).toEqual([])
    const august = triageReport(db, { from: '2019-08-01', to: '2019-08-01' })
    expect(august.workers).toMatchObject([{ workerId: 'BRAVO', medianWorkSeconds: null }])
    db.close()
  })

  it('default to the last day, then to the days since the last triage', () => {
    const db = projectWith(tempDir(), DAY)
    expect(defaultRange(db)).toEqual({ from: '2019-09-06', to: '2019-09-06' })
    startQueue(db, { from: '2019-08-01', to: '2019-09-04', author: 't', seed: 1 })
    expect(defaultRange(db)).toEqual({ from: '2019-09-05', to: '2019-09-06' })
    expect(triageReport(db, {}).workers.map((w) => w.workerId)).toEqual([
      'ALPHA',
      'BRAVO',
      'CHARLIE',
    ])
    db.close()
  })

  it('take the median of an even count as the mean of the middle two', () => {
    expect(median([])).toBeNull()
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([5])).toBe(5)
  })

  it('print as `winnow triage --json`', async () => {
    const dir = tempDir()
    projectWith(dir, DAY).close()
    const out = await cli(
      'triage',
      '--db',
      `${dir}/triage.winnow`,
      '--date',
      '2019-09-05',
      '--json',
    )
    expect(out.code).toBe(0)
    const json = out.json as { workers: Array<Record<string, unknown>> }
    expect(json.workers[0]).toEqual({
      workerId: 'ALPHA',
      submissions: 3,
      avgDimensions: 2,
      medianWorkSeconds: 200,
      minimalShare: 2 / 3,
      flags: ['rushing', 'new'],
    })
    const range = await cli(
      'triage',
      '--db',
      `${dir}/triage.winnow`,
      '--from',
      '2019-09-05',
      '--to',
      '2019-09-06',
      '--json',
    )
    expect((range.json as { workers: unknown[] }).workers).toHaveLength(3)
    const bad = await cli('triage', '--db', `${dir}/triage.winnow`, '--date', '2019-02-30')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--date must be a date YYYY-MM-DD')
  })
})
