import { type KeyboardEvent, useEffect, useRef, useState } from 'react'
import type { ReviewedTask, TaskReview } from '../../../../shared/crowdaq/contract'
import { api } from '../../api'
import { formatMoment, plural } from '../../lib/format'
import { isTypingTarget } from '../../lib/keys'
import { showError } from '../messages/messages'
import { pct } from './percent'
import { ContextView } from './SafeContent'

/** How many responses one review lists; the rest are counted. */
const SHOWN = 500

/**
 * Task responses under review: per `group.collector` how far workers agree (the majority share),
 * then each task with its contexts and its workers' responses, the tasks they disagree on first.
 * Responses are workers' text and always shown as text.
 */
export function TaskReviewPanel({ taskId }: { taskId?: string }) {
  const [review, setReview] = useState<TaskReview | null>(null)
  const list = useRef<HTMLDivElement>(null)

  useEffect(() => {
    // The page keys this panel by task and response count: a new one starts empty.
    let live = true
    api.crowdaq
      .taskReview({ ...(taskId === undefined ? {} : { taskId }), limit: SHOWN })
      .then((r) => live && setReview(r))
      .catch((e: unknown) => live && showError('Reading task responses', e))
    return () => {
      live = false
    }
  }, [taskId])

  if (!review) return <p className="note">Reading responses…</p>
  if (review.total === 0) {
    return (
      <section className="cq-review" data-testid="cq-task-review">
        <p className="note" data-testid="cq-review-empty">
          {taskId === undefined ? 'No task responses yet.' : 'No responses to this task yet.'}{' '}
          Import task assignment rows (a CROWDAQ export, or a desktop-client export folder) to
          review them here.
        </p>
      </section>
    )
  }

  const cards = (): HTMLElement[] =>
    Array.from(list.current?.querySelectorAll<HTMLElement>('[data-review-task]') ?? [])
  const focusTask = (id: string): void => {
    cards()
      .find((c) => c.dataset.reviewTask === id)
      ?.focus()
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>): void {
    if (isTypingTarget(e.target) || e.ctrlKey || e.metaKey || e.altKey) return
    const all = cards()
    const at = all.findIndex((c) => c.contains(document.activeElement))
    let next: number | null = null
    if (e.key === 'j' || e.key === 'ArrowDown') next = Math.min(at + 1, all.length - 1)
    else if (e.key === 'k' || e.key === 'ArrowUp') next = Math.max(at - 1, 0)
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = all.length - 1
    if (next === null) return
    e.preventDefault()
    all[next]?.focus()
  }

  const byTask = new Map<string, TaskReview['responses']>()
  for (const r of review.responses) byTask.set(r.taskId, [...(byTask.get(r.taskId) ?? []), r])
  const compared = review.agreement.filter((a) => a.tasks > 0)
  return (
    <section className="cq-review" data-testid="cq-task-review">
      <h3>Agreement</h3>
      {compared.length === 0 ? (
        <p className="note" data-testid="cq-agreement-empty">
          No multiple-choice or multi-label question has two answers to one task yet, so there is no
          agreement to show.
        </p>
      ) : (
        <table className="table compact" data-testid="cq-agreement">
          <thead>
            <tr>
              <th>Question</th>
              <th>Kind</th>
              <th>Tasks with 2+ answers</th>
              <th>Majority share</th>
              <th>Tasks with disagreement</th>
            </tr>
          </thead>
          <tbody>
            {compared.map((a) => (
              <tr key={a.key}>
                <td className="mono">{a.key}</td>
                <td>{a.type}</td>
                <td>{a.tasks}</td>
                <td>{pct(a.majorityShare)}</td>
                <td>
                  {a.disagreements.length === 0
                    ? 'none'
                    : a.disagreements.map((d) => (
                        <button
                          key={d.taskId}
                          className="link cq-disagreement"
                          title={Object.entries(d.values)
                            .map(([v, n]) => `${v}: ${n}`)
                            .join(', ')}
                          onClick={() => focusTask(d.taskId)}
                        >
                          {d.taskId} ({pct(d.share)})
                        </button>
                      ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Responses</h3>
      <p className="note">
        {review.responses.length < review.total
          ? `The first ${review.responses.length} of ${plural(review.total, 'response')}`
          : plural(review.total, 'response')}
        ; tasks workers disagree on come first. j / k (or ↓ / ↑) step through the tasks.
      </p>
      <div className="cq-review-tasks" ref={list} onKeyDown={onKeyDown}>
        {review.tasks.map((t) => (
          <TaskResponses key={t.id} task={t} responses={byTask.get(t.id) ?? []} />
        ))}
      </div>
    </section>
  )
}

function TaskResponses({
  task,
  responses,
}: {
  task: ReviewedTask
  responses: TaskReview['responses']
}) {
  return (
    <article
      className="cq-review-task"
      tabIndex={0}
      data-review-task={task.id}
      data-testid="cq-review-task"
      aria-label={`Task ${task.id}`}
    >
      <header>
        <span className="mono">{task.id}</span> · {plural(task.responses, 'response')} ·{' '}
        {task.lowestShare === null
          ? 'nothing to compare'
          : task.lowestShare < 1
            ? `workers disagree (lowest majority share ${pct(task.lowestShare)})`
            : 'workers agree'}
      </header>
      {task.contexts.map((c, i) => (
        <ContextView key={i} context={c} />
      ))}
      <table className="table compact">
        <thead>
          <tr>
            <th>Worker</th>
            <th>Completed</th>
            {task.columns.map((c) => (
              <th key={c.key} title={c.key}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {responses.map((r) => (
            <tr key={r.workerId} data-testid="cq-review-response">
              <td className="mono">{r.workerId}</td>
              <td>{r.completedAt === null ? '–' : formatMoment(r.completedAt * 1000)}</td>
              {task.columns.map((c) => {
                const cell = r.cells[c.key]
                return (
                  <td
                    key={c.key}
                    className={cell?.disputed ? 'cq-disputed' : undefined}
                    title={cell?.disputed ? 'Workers disagree here' : undefined}
                  >
                    {cell?.text ?? ''}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  )
}
