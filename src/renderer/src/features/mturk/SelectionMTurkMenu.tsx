import { useState } from 'react'
import type { QueryTargetCounts, WorkerActionKind } from '../../../../shared/contract/mturk'
import type { ReviewRow } from '../../../../shared/contract/review'
import type { AnnotationFilter } from '../../../../shared/filter'
import { api } from '../../api'
import { formatCount } from '../../lib/format'
import { showError } from '../messages/messages'
import { Menu } from '../shell/Menu'
import type { Selection } from '../grid/workspaceModel'
import { ActionDialog, type ActionTargets } from './ActionDialog'
import './mturk.css'

type On = 'assignments' | 'workers' | 'bonus'

/**
 * MTurk actions on the selected grid rows: reviews on their distinct assignments, a bonus per
 * worker (on that worker's latest selected assignment), the rest per distinct worker. With the
 * whole query selected, main counts (and on confirm, resolves) the query's assignments and workers;
 * the rows never come to the page.
 */
export function SelectionMTurkMenu({ selection }: { selection: Selection }) {
  const [acting, setActing] = useState<{ kind: WorkerActionKind; targets: ActionTargets } | null>(
    null,
  )
  const [counted, setCounted] = useState<{
    filter: AnnotationFilter
    counts: QueryTargetCounts
  } | null>(null)
  const byQuery = selection.mode === 'query'
  const queryCounts =
    selection.mode === 'query' && counted?.filter === selection.filter ? counted.counts : null
  const rows = selection.mode === 'rows' ? [...selection.rows.values()] : []
  const targets = targetsOf(rows)

  function countQuery() {
    if (selection.mode !== 'query' || queryCounts) return
    const filter = selection.filter
    api.mturk
      .queryTargets({ filter })
      .then((counts) => setCounted({ filter, counts }))
      .catch((e: unknown) => showError('Counting the workers of this query', e))
  }

  const item = (kind: WorkerActionKind, label: string, on: On) => {
    if (selection.mode === 'query') {
      const n = queryCounts
        ? on === 'workers'
          ? queryCounts.workers
          : on === 'bonus'
            ? queryCounts.bonusAssignments
            : queryCounts.assignments
        : null
      return {
        label: `${label} (${n === null ? 'counting…' : formatCount(n)})`,
        testId: `selection-mturk-${kind}`,
        disabled: n === null || n === 0,
        onSelect: () =>
          queryCounts &&
          setActing({
            kind,
            targets: {
              workers: [],
              assignments: [],
              query: { filter: selection.filter, counts: queryCounts },
            },
          }),
      }
    }
    const list =
      on === 'workers'
        ? { workers: targets.workers, assignments: [] }
        : on === 'bonus'
          ? { workers: targets.workers, assignments: targets.latestPerWorker }
          : { workers: targets.workers, assignments: targets.assignments }
    const n = on === 'workers' ? list.workers.length : list.assignments.length
    return {
      label: `${label} (${n})`,
      testId: `selection-mturk-${kind}`,
      disabled: n === 0,
      onSelect: () => setActing({ kind, targets: list }),
    }
  }
  return (
    <>
      <Menu
        label="MTurk…"
        buttonClass="small"
        testId="selection-mturk"
        onOpen={countQuery}
        items={[
          {
            label: byQuery ? 'On the assignments of the whole query' : 'On the assignments',
            heading: true,
          },
          item('approve', 'Approve', 'assignments'),
          item('reject', 'Reject…', 'assignments'),
          item('bonus', 'Bonus per worker…', 'bonus'),
          { label: '', separator: true },
          {
            label: byQuery ? 'On the workers of the whole query' : 'On the workers',
            heading: true,
          },
          item('notify', 'Message…', 'workers'),
          item('qualify', 'Qualify…', 'workers'),
          item('disqualify', 'Disqualify…', 'workers'),
          item('block', 'Block…', 'workers'),
          item('unblock', 'Unblock…', 'workers'),
        ]}
      />
      {acting && (
        <ActionDialog kind={acting.kind} targets={acting.targets} onClose={() => setActing(null)} />
      )}
    </>
  )
}

function targetsOf(rows: readonly ReviewRow[]): {
  workers: string[]
  assignments: { assignmentId: string; workerId: string }[]
  latestPerWorker: { assignmentId: string; workerId: string }[]
} {
  const assignments = new Map<string, { assignmentId: string; workerId: string; at: number }>()
  for (const r of rows) {
    if (!r.assignmentId || !r.workerId) continue
    assignments.set(r.assignmentId, {
      assignmentId: r.assignmentId,
      workerId: r.workerId,
      at: r.submittedAt ?? 0,
    })
  }
  const latest = new Map<string, { assignmentId: string; workerId: string; at: number }>()
  for (const a of assignments.values()) {
    const seen = latest.get(a.workerId)
    if (!seen || a.at > seen.at) latest.set(a.workerId, a)
  }
  const strip = ({ assignmentId, workerId }: { assignmentId: string; workerId: string }) => ({
    assignmentId,
    workerId,
  })
  return {
    workers: [
      ...new Set(
        rows
          .map((r) => r.workerId)
          .filter((w): w is string => w !== null && /^A[A-Z0-9]+$/.test(w)),
      ),
    ],
    assignments: [...assignments.values()].map(strip),
    latestPerWorker: [...latest.values()].map(strip),
  }
}
