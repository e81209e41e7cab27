import type { CollectorAgreement, TaskReview } from '../../shared/contract/crowdaq'
import { majorityShare } from '../../shared/crowdaq/examReport'
import type { TaskSpec } from '../../shared/crowdaq/spec'
import type { Db } from '../db/connection'
import { storedTask } from '../db/queries/crowdaqSpecs'
import { taskResponses } from '../db/queries/crowdaqTasks'

const valueKey = (v: unknown): string =>
  Array.isArray(v) ? (v as unknown[]).map(String).sort().join('+') : String(v)

/**
 * Task responses for review, and per `group.collector` (multiple-choice and multi-label) the
 * majority-share agreement across workers, with the tasks they disagree on listed first.
 */
export function taskReview(db: Db, taskId: string | undefined, limit = 200): TaskReview {
  const rows = taskResponses(db, taskId)
  const specs = new Map<string, TaskSpec | undefined>()
  const spec = (id: string): TaskSpec | undefined => {
    if (!specs.has(id)) specs.set(id, storedTask(db, id) as TaskSpec | undefined)
    return specs.get(id)
  }
  // key → task → values chosen
  const values = new Map<
    string,
    { type: CollectorAgreement['type']; byTask: Map<string, unknown[]> }
  >()
  for (const r of rows) {
    const s = spec(r.taskId)
    if (!s) continue
    for (const group of s.annotation_groups) {
      if (group.repeated) continue
      const answers = (r.response[group.id] ?? {}) as Record<string, unknown>
      for (const c of group.annotations) {
        if (c.type !== 'multiple-choice' && c.type !== 'multi-label') continue
        const key = `${group.id}.${c.id}`
        let entry = values.get(key)
        if (!entry) {
          entry = { type: c.type, byTask: new Map() }
          values.set(key, entry)
        }
        const list = entry.byTask.get(r.taskId) ?? []
        if (answers[c.id] !== undefined) list.push(answers[c.id])
        entry.byTask.set(r.taskId, list)
      }
    }
  }
  const agreement: CollectorAgreement[] = []
  for (const [key, { type, byTask }] of values) {
    const shares: number[] = []
    const disagreements: CollectorAgreement['disagreements'] = []
    for (const [id, list] of byTask) {
      if (list.length < 2) continue
      const share = majorityShare(list)
      if (share === null) continue
      shares.push(share)
      if (share < 1) {
        const counts: Record<string, number> = {}
        for (const v of list) counts[valueKey(v)] = (counts[valueKey(v)] ?? 0) + 1
        disagreements.push({ taskId: id, share, values: counts })
      }
    }
    disagreements.sort((a, b) => a.share - b.share || a.taskId.localeCompare(b.taskId))
    agreement.push({
      key,
      type,
      tasks: shares.length,
      majorityShare: shares.length === 0 ? null : shares.reduce((a, b) => a + b, 0) / shares.length,
      disagreements,
    })
  }
  agreement.sort(
    (a, b) => (a.majorityShare ?? 2) - (b.majorityShare ?? 2) || a.key.localeCompare(b.key),
  )
  // Disagreements first: responses to tasks with the lowest agreement lead the list.
  const worst = new Map<string, number>()
  for (const a of agreement) {
    for (const d of a.disagreements)
      worst.set(d.taskId, Math.min(worst.get(d.taskId) ?? 1, d.share))
  }
  const ordered = [...rows].sort(
    (a, b) =>
      (worst.get(a.taskId) ?? 1) - (worst.get(b.taskId) ?? 1) || a.taskId.localeCompare(b.taskId),
  )
  return {
    agreement,
    total: rows.length,
    responses: ordered.slice(0, limit).map((r) => ({
      taskId: r.taskId,
      workerId: r.workerId,
      completedAt: r.completedAt,
      response: r.response,
    })),
  }
}
