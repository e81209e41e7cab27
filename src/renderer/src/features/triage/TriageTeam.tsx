import type { TriageQueue } from '../../../../shared/contract/triage'
import { api } from '../../api'
import { showError } from '../messages/messages'

/** How many items one claim takes for the reviewer. */
const CLAIM = 20

/**
 * In a team project: each member's progress through the items they claimed, and a button that
 * claims the next items no one has, so reviewers working one queue never review an item twice.
 */
export function TriageTeam({
  queue,
  onChange,
}: {
  queue: TriageQueue
  onChange: (queue: TriageQueue) => void
}) {
  if (!queue.members) return null
  const claim = () => {
    api.triage
      .claim({ queueId: queue.id, count: CLAIM })
      .then(() => api.triage.queue({ queueId: queue.id }))
      .then(onChange)
      .catch((e: unknown) => showError('Claiming items to review', e))
  }
  return (
    <span className="note" data-testid="triage-team">
      {queue.members.map((m) => (
        <span key={m.member}>
          {m.member} {m.reviewed} of {m.claimed} ·{' '}
        </span>
      ))}
      <button onClick={claim}>Claim {CLAIM} to review</button>
    </span>
  )
}
