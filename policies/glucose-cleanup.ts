/**
 * GLUCOSE's cleanup before release (FORMATS.md §2): the release carries only the ratings 3, 2 and 1.
 *
 * 1. Workers with more than `prolific` submissions rated 3 had their work reviewed; where their
 *    3-rated work failed review, all their 3s became 2.
 * 2. Workers with `check` to `prolific` submissions rated 3 had only their 3-rated work checked,
 *    and it was demoted to 2 where it failed.
 * 3. −2 (rushing, but good rules) became 2.
 * 4. 1.5, 0 and −1 became 1; 1, 2 and 3 stay unless demoted above.
 *
 * Who failed review is a human decision: list those workers in `failedReview`. Once audits exist,
 * `minPrecision` also demotes workers whose audited 3-rated sample scored below it.
 */
import { definePolicy, rule, type Facts, type WorkerFacts } from './winnow-policy'

export default definePolicy({
  name: 'GLUCOSE cleanup',
  description: "Demote failed reviewers' 3s to 2, then map −2 to 2 and 1.5, 0, −1 to 1.",
  params: {
    prolific: {
      type: 'number',
      label: "Prolific: more '3' submissions than",
      default: 200,
      min: 0,
    },
    check: {
      type: 'number',
      label: "Checked: at least this many '3' submissions",
      default: 100,
      min: 0,
    },
    failedReview: { type: 'workers', label: "Workers whose '3' work failed review", default: [] },
    minPrecision: {
      type: 'number',
      label: "Demote when the audited precision of their '3' sample is below",
      default: null,
      min: 0,
      max: 1,
      optional: true,
    },
  },
  rules(facts, params) {
    const failed = new Set(params.failedReview)
    const threes = (w: WorkerFacts): number => w.submissionsRated(3)
    const demoted = (w: WorkerFacts): boolean =>
      failed.has(w.id) || auditedBelow(facts, w.id, params.minPrecision)
    const prolific = facts.workers.filter((w) => threes(w) > params.prolific && demoted(w))
    const checked = facts.workers.filter(
      (w) => threes(w) >= params.check && threes(w) <= params.prolific && demoted(w),
    )
    return [
      rule({
        name: "Prolific workers' 3s that failed review → 2",
        where: { workers: prolific.map((w) => w.id), ratings: [3] },
        to: 2,
        reason: '3-rated work weaker than expected on review',
      }),
      rule({
        name: "Checked workers' 3s that failed review → 2",
        where: { workers: checked.map((w) => w.id), ratings: [3] },
        to: 2,
        reason: '3-rated work failed the check',
      }),
      rule({
        name: 'Rushing (−2) → 2',
        where: { ratings: [-2] },
        to: 2,
        reason: 'rushed, but the rules are good',
      }),
      rule({
        name: '1.5, 0 and −1 → 1',
        where: { ratings: [1.5, 0, -1] },
        to: 1,
        reason: 'the release keeps only 3, 2 and 1',
      }),
    ]
  },
})

/** Whether an audit of the worker's 3-rated work scored below `p` (never, without audits). */
function auditedBelow(facts: Facts, worker: string, p: number | null): boolean {
  if (p === null) return false
  return facts.audits.some(
    (a) => a.rating === 3 && a.workers !== null && a.workers.includes(worker) && a.precision < p,
  )
}
