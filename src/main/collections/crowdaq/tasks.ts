import type {
  CollectorAgreement,
  ReviewedTask,
  TaskResponseView,
  TaskReview,
} from '../../../shared/crowdaq/contract'
import { answerKey, majorityShare } from '../../../shared/crowdaq/examReport'
import type { TaskSpec } from '../../../shared/crowdaq/spec'
import type { Db } from '../../db/connection'
import { storedTask } from './db/specs'
import { type TaskResponseRow, taskResponses } from './db/tasks'
import { previewContext } from './preview'
import { responseTexts, taskColumns } from './responseText'
import { smallest } from '../../../shared/lists'

type Values = Map<string, { type: CollectorAgreement['type']; byTask: Map<string, unknown[]> }>

/** Per `group.collector` (multiple-choice and multi-label), per task, the values workers chose. */
function chosenValues(
  rows: readonly TaskResponseRow[],
  spec: (id: string) => TaskSpec | undefined,
): Values {
  const values: Values = new Map()
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
  return values
}

/** Per collector the agreement; per task the share of each collector with two answers or more. */
function agreementOf(values: Values): {
  agreement: CollectorAgreement[]
  byTask: Map<string, Map<string, number>>
} {
  const agreement: CollectorAgreement[] = []
  const perTask = new Map<string, Map<string, number>>()
  for (const [key, { type, byTask }] of values) {
    const shares: number[] = []
    const disagreements: CollectorAgreement['disagreements'] = []
    for (const [id, list] of byTask) {
      if (list.length < 2) continue
      const share = majorityShare(list)
      if (share === null) continue
      shares.push(share)
      const taskShares = perTask.get(id) ?? new Map<string, number>()
      taskShares.set(key, share)
      perTask.set(id, taskShares)
      if (share < 1) {
        const counts: Record<string, number> = {}
        for (const v of list) counts[answerKey(v)] = (counts[answerKey(v)] ?? 0) + 1
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
  return { agreement, byTask: perTask }
}

/**
 * Task responses for review, each with its task's contexts and its values in words, and per
 * `group.collector` (multiple-choice and multi-label) the majority-share agreement across workers.
 * Tasks workers disagree on come first, the least agreed first.
 */
export function taskReview(db: Db, taskId: string | undefined, limit = 200): TaskReview {
  const rows = taskResponses(db, taskId)
  const specs = new Map<string, TaskSpec | undefined>()
  const spec = (id: string): TaskSpec | undefined => {
    if (!specs.has(id)) specs.set(id, storedTask(db, id) as TaskSpec | undefined)
    return specs.get(id)
  }
  const { agreement, byTask } = agreementOf(chosenValues(rows, spec))
  // Each task's lowest share, once: the sort below asks for it on every comparison.
  const lowestByTask = new Map([...byTask].map(([id, shares]) => [id, smallest(shares.values())]))
  const lowest = (id: string): number | null => lowestByTask.get(id) ?? null
  const disputed = (id: string, key: string): boolean => (byTask.get(id)?.get(key) ?? 1) < 1

  const ordered = [...rows].sort(
    (a, b) =>
      (lowest(a.taskId) ?? 2) - (lowest(b.taskId) ?? 2) ||
      a.taskId.localeCompare(b.taskId) ||
      a.workerId.localeCompare(b.workerId),
  )
  const responses: TaskResponseView[] = ordered.slice(0, limit).map((r) => {
    const s = spec(r.taskId)
    const texts = s ? responseTexts(s, r.response) : new Map<string, string>()
    const cells: TaskResponseView['cells'] = {}
    for (const [key, text] of texts) cells[key] = { text, disputed: disputed(r.taskId, key) }
    return {
      taskId: r.taskId,
      workerId: r.workerId,
      completedAt: r.completedAt,
      response: r.response,
      cells,
    }
  })

  const perTask = new Map<string, number>()
  for (const r of rows) perTask.set(r.taskId, (perTask.get(r.taskId) ?? 0) + 1)
  const filledOf = new Map<string, Set<string>>()
  for (const r of responses) {
    const keys = filledOf.get(r.taskId) ?? new Set<string>()
    for (const key of Object.keys(r.cells)) keys.add(key)
    filledOf.set(r.taskId, keys)
  }
  const tasks: ReviewedTask[] = []
  for (const [id, filled] of filledOf) {
    const s = spec(id)
    tasks.push({
      id,
      contexts: (s?.contexts ?? []).map(previewContext),
      columns: s
        ? taskColumns(s)
            .filter((c) => filled.has(c.key))
            .map(({ key, label }) => ({ key, label }))
        : [],
      lowestShare: lowest(id),
      responses: perTask.get(id) ?? 0,
    })
  }
  return { agreement, tasks, responses, total: rows.length }
}
