import { useState } from 'react'
import type { TriageQueue } from '../../../../shared/contract/triage'
import { api } from '../../api'
import { showError, showInfo } from '../messages/messages'
import { plural } from '../../lib/format'

/** The queue's feedback, one message per worker, sent as MTurk notifications on request. */
export function FeedbackSender({ queue }: { queue: TriageQueue }) {
  const [sending, setSending] = useState(false)
  const byWorker = new Map<string, string[]>()
  for (const item of queue.items) {
    const text = item.feedback.trim()
    if (!item.workerId || !text) continue
    byWorker.set(item.workerId, [...(byWorker.get(item.workerId) ?? []), text])
  }
  if (byWorker.size === 0) return <p className="note">No feedback queued.</p>

  const send = async () => {
    setSending(true)
    try {
      for (const [workerId, texts] of byWorker) {
        await api.mturk.notify({
          workerIds: [workerId],
          subject: 'Feedback on your recent work',
          message: texts.join('\n\n'),
        })
      }
      showInfo(`Feedback sent to ${plural(byWorker.size, 'worker')}.`)
    } catch (e) {
      showError('Sending the feedback', e)
    } finally {
      setSending(false)
    }
  }

  return (
    <div className="feedback-sender" data-testid="feedback-sender">
      <h3>Queued feedback</h3>
      <ul>
        {[...byWorker].map(([workerId, texts]) => (
          <li key={workerId}>
            <span className="mono">{workerId}</span>: {texts.join(' / ')}
          </li>
        ))}
      </ul>
      <button className="primary" disabled={sending} onClick={() => void send()}>
        Send through MTurk ({plural(byWorker.size, 'worker')})
      </button>
    </div>
  )
}
