import type { Assignment } from '@aws-sdk/client-mturk'
import { describe, expect, it } from 'vitest'
import { mapAssignment } from '../../src/main/mturk/glucose-map'
import {
  DONE,
  type PullBatch,
  type PullCheckpoint,
  listHITs,
  nearDisposal,
  pullAssignments,
} from '../../src/main/mturk/pull'
import { faultMix, seedDemo } from '../../standin/index'
import { DAY_MS } from '../../standin/state'
import { movableClock, useStandin } from './standin-helpers'

const start = useStandin()

async function collect(batches: AsyncIterable<PullBatch>): Promise<PullBatch[]> {
  const out: PullBatch[] = []
  for await (const b of batches) out.push(b)
  return out
}

const ids = (batches: PullBatch[]): string[] =>
  batches.flatMap((b) => b.assignments.map((a) => a.AssignmentId ?? ''))

describe('listHITs', () => {
  it('pages through every HIT and filters by type or title', async () => {
    const { standin, ctx } = await start()
    const seed = seedDemo(standin.state, { hits: 230, assignmentsPerHit: 0 })
    const all = await listHITs(ctx)
    expect(all).toHaveLength(230)
    expect(standin.state.requests.filter((r) => r.operation === 'ListHITs')).toHaveLength(3)
    const practiceType = seed.hits.find((h) => h.Title.includes('practice'))?.HITTypeId ?? ''
    expect(await listHITs(ctx, { hitTypeIds: [practiceType] })).toHaveLength(23)
    const byTitle = await listHITs(ctx, { titleContains: 'PRACTICE round #10' })
    expect(byTitle.map((h) => h.Title)).toEqual([
      'GLUCOSE practice round #10',
      'GLUCOSE practice round #100',
    ])
  })
})

describe('pullAssignments', () => {
  it('pulls every status across many pages, tolerating an empty last page', async () => {
    const { standin, ctx } = await start()
    const big = standin.state.addHIT({ Title: 'big', MaxAssignments: 250 })
    const exact = standin.state.addHIT({ Title: 'exact', MaxAssignments: 100 })
    const statuses = ['Submitted', 'Approved', 'Rejected'] as const
    for (let i = 0; i < 250; i++) {
      standin.state.addAssignment({
        HITId: big.HITId,
        WorkerId: `AW${i}`,
        AssignmentStatus: statuses[i % 3],
      })
    }
    for (let i = 0; i < 100; i++) {
      standin.state.addAssignment({ HITId: exact.HITId, WorkerId: `AX${i}` })
    }
    const hits = await listHITs(ctx)
    const batches = await collect(pullAssignments(ctx, hits))
    const bigPages = batches.filter((b) => b.hit.HITId === big.HITId)
    expect(bigPages.map((b) => b.assignments.length)).toEqual([100, 100, 50])
    const exactPages = batches.filter((b) => b.hit.HITId === exact.HITId)
    expect(exactPages.map((b) => b.assignments.length)).toEqual([100, 0])
    expect(exactPages.at(-1)?.nextToken).toBeUndefined()
    const pulled = batches.flatMap((b) => b.assignments)
    expect(new Set(ids(batches)).size).toBe(350)
    expect(new Set(pulled.map((a) => a.AssignmentStatus))).toEqual(new Set(statuses))
    expect(batches.at(-1)?.checkpoint).toEqual({ [big.HITId]: DONE, [exact.HITId]: DONE })
    const calls = standin.state.requests.filter((r) => r.operation === 'ListAssignmentsForHIT')
    expect(calls.every((c) => (c.input as { MaxResults: number }).MaxResults === 100)).toBe(true)
  })

  it('gets every assignment exactly once with 20% injected faults (50 HITs × 9)', async () => {
    const { standin, ctx, log } = await start()
    const seed = seedDemo(standin.state, { hits: 50, assignmentsPerHit: 9 })
    standin.setFaults(faultMix(0.2, 42, 1))
    const hits = await listHITs(ctx)
    const batches = await collect(pullAssignments(ctx, hits, { concurrency: 4 }))
    const pulled = ids(batches)
    expect(pulled).toHaveLength(450)
    expect(new Set(pulled)).toEqual(new Set(seed.assignments.map((a) => a.AssignmentId)))
    const faults = standin.state.requests.filter((r) => r.fault)
    expect(faults.length).toBeGreaterThan(5) // the faults really happened
    expect(log.some((line) => line.includes('lostSuccess'))).toBe(true)
  })

  it('hands every page the same checkpoint map, so a page costs the same however many HITs', async () => {
    const { standin, ctx } = await start()
    seedDemo(standin.state, { hits: 30, assignmentsPerHit: 1 })
    const seen = new Set<object>()
    let pages = 0
    for await (const batch of pullAssignments(ctx, await listHITs(ctx), { concurrency: 4 })) {
      seen.add(batch.checkpoint)
      expect(batch.checkpoint[batch.hit.HITId ?? '']).toBe(DONE)
      expect(Object.keys(batch.checkpoint)).toHaveLength(++pages)
    }
    expect(pages).toBe(30)
    expect(seen.size).toBe(1)
  })

  it('resumes from a checkpoint without duplicates or refetching finished HITs', async () => {
    const { standin, ctx } = await start()
    const seed = seedDemo(standin.state, { hits: 6, assignmentsPerHit: 150 })
    const hits = await listHITs(ctx)
    // A pull killed after its fifth page (HIT 3 half done); what was stored is the pages and the last checkpoint.
    const stored: Assignment[] = []
    let checkpoint: PullCheckpoint = {}
    for await (const batch of pullAssignments(ctx, hits)) {
      stored.push(...batch.assignments)
      checkpoint = batch.checkpoint
      if (stored.length >= 400) break
    }
    const finished = Object.keys(checkpoint).filter((id) => checkpoint[id] === DONE)
    expect(finished).toHaveLength(2)
    const before = standin.state.requests.length
    for await (const batch of pullAssignments(ctx, hits, { checkpoint })) {
      stored.push(...batch.assignments)
      expect(finished).not.toContain(batch.hit.HITId)
    }
    const refetched = standin.state.requests
      .slice(before)
      .filter((r) => finished.includes((r.input as { HITId: string }).HITId))
    expect(refetched).toEqual([])
    expect(stored.map((a) => a.AssignmentId).sort()).toEqual(
      seed.assignments.map((a) => a.AssignmentId).sort(),
    )
  })

  it('marks a HIT disposed during the pull as gone, and calls out HITs near disposal', async () => {
    const clock = movableClock()
    const { standin, ctx } = await start({ clock: clock.now })
    const old = standin.state.addHIT({ Title: 'old', CreationTime: clock.now() - 115 * DAY_MS })
    const young = standin.state.addHIT({ Title: 'young' })
    const hits = await listHITs(ctx)
    expect(hits.filter((h) => nearDisposal(h, clock.now())).map((h) => h.HITId)).toEqual([
      old.HITId,
    ])
    clock.advance(6 * DAY_MS)
    const batches = await collect(pullAssignments(ctx, hits))
    expect(batches.map((b) => [b.hit.HITId, b.gone ?? false])).toEqual([
      [old.HITId, true],
      [young.HITId, false],
    ])
    expect(batches.at(-1)?.checkpoint[old.HITId]).toBe(DONE)
  })

  it('stops when the signal aborts', async () => {
    const { standin, ctx } = await start({ faults: { slow: 1, delayMs: 50 } })
    seedDemo(standin.state, { hits: 20, assignmentsPerHit: 1 })
    const hits = await listHITs(ctx)
    const controller = new AbortController()
    const pulled: PullBatch[] = []
    const run = (async () => {
      for await (const b of pullAssignments({ ...ctx, signal: controller.signal }, hits)) {
        pulled.push(b)
        if (pulled.length === 2) controller.abort()
      }
    })()
    await expect(run).rejects.toThrow()
    expect(pulled.length).toBeLessThan(20)
  })

  it('maps pulled demo assignments into submissions, flagging only the broken ones', async () => {
    const { standin, ctx } = await start()
    seedDemo(standin.state, { hits: 12, assignmentsPerHit: 9, brokenEvery: 50 })
    const submissions = []
    for await (const batch of pullAssignments(ctx, await listHITs(ctx))) {
      for (const a of batch.assignments) submissions.push(mapAssignment(batch.hit, a))
    }
    expect(submissions).toHaveLength(108)
    const unparsed = submissions.filter((s) => s.storyExternalId === null)
    expect(unparsed).toHaveLength(2)
    const good = submissions.filter((s) => s.storyExternalId !== null)
    expect(good.every((s) => s.annotations.length >= 2 && s.sentenceIndex >= 0)).toBe(true)
    expect(good.every((s) => s.storyText.split('. ').length === 5)).toBe(true)
  })
})
