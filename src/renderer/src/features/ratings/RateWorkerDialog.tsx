import { useEffect, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import type { RatingResult } from '../../../../shared/contract/ratings'
import { api } from '../../api'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { formatCount, todayIso } from '../../lib/format'
import { useStore } from '../../lib/store'
import { ErrorText } from '../messages/Messages'
import { showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import { describeResult, inTurn, ratingsChanged } from './ratingState'
import { ratingScale } from './scale'
import { ratingText } from './scaleMath'
import { Transitions } from './Transitions'

/** A commit date the dialog offers, with what it is (`the day being triaged`). */
export interface CommitDay {
  day: string
  label: string
}

interface RateWorkerDialogProps {
  worker: { id: number; externalId: string }
  onClose: () => void
  /** Commit dates to offer besides today, the first the default (else today is). */
  days?: readonly CommitDay[]
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/**
 * A worker rating takes effect from its commit date: every submission on or after that date (until
 * the next commit date) takes it. The preview shows which annotations move before anything is written.
 */
export function RateWorkerDialog({ worker, onClose, days = [] }: RateWorkerDialogProps) {
  const scale = useStore(ratingScale)
  const [value, setValue] = useState<number | null>(null)
  const today = todayIso()
  const offered = [...days, { day: today, label: 'today' }].filter(
    (d, i, all) => all.findIndex((e) => e.day === d.day) === i,
  )
  const [from, setFrom] = useState(offered[0]?.day ?? today)
  const chosen = offered.find((d) => d.day === from)
  const [note, setNote] = useState('')
  const [preview, setPreview] = useState<RatingResult | null>(null)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [busy, setBusy] = useState(false)
  const valid = value !== null && DAY.test(from)

  useEffect(() => {
    if (value === null || !DAY.test(from)) return
    let live = true
    const timer = setTimeout(() => {
      api.ratings
        .rateWorker({ workerId: worker.id, rating: value, from, preview: true })
        .then((r) => {
          if (!live) return
          setPreview(r)
          setError(null)
        })
        .catch((e: unknown) => live && setError(toErrorInfo(e)))
    }, 150)
    return () => {
      live = false
      clearTimeout(timer)
    }
  }, [worker.id, value, from])

  async function save() {
    if (value === null) return
    setBusy(true)
    try {
      const result = await inTurn(() =>
        api.ratings.rateWorker({
          workerId: worker.id,
          rating: value,
          from,
          ...(note.trim() ? { note: note.trim() } : {}),
        }),
      )
      showInfo(
        `Worker ${worker.externalId} rated ${ratingText(value, scale)} from ${from}: ${describeResult(result)}.`,
      )
      ratingsChanged()
      onClose()
    } catch (e) {
      setError(toErrorInfo(e))
      setBusy(false)
    }
  }

  return (
    <Modal
      title={`Rate worker ${worker.externalId}`}
      onClose={onClose}
      testId="rate-worker-dialog"
      footer={
        <>
          <button onClick={onClose}>Cancel</button>
          <button
            className="primary"
            disabled={!valid || busy}
            data-testid="rate-worker-save"
            onClick={() => void save()}
          >
            Save rating
          </button>
        </>
      }
    >
      <div className="field-row">
        <label className="field">
          <span>Rating</span>
          <select
            data-testid="rate-worker-value"
            value={value === null ? '' : String(value)}
            autoFocus
            onChange={(e) => setValue(e.target.value === '' ? null : Number(e.target.value))}
          >
            <option value="">Choose…</option>
            {scale.map((l) => (
              <option key={l.value} value={String(l.value)}>
                {ratingText(l.value, scale)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Commit date (in force from)</span>
          <input
            type="date"
            data-testid="rate-worker-from"
            value={from}
            onChange={(e) => setFrom(e.target.value)}
          />
        </label>
      </div>
      {offered.length > 1 && (
        <p className="commit-days">
          In force from:{' '}
          {offered.map((d, i) => (
            <span key={d.day}>
              {i > 0 && ' · '}
              <button
                type="button"
                className="link-button"
                aria-pressed={d.day === from}
                data-testid="rate-worker-day"
                onClick={() => setFrom(d.day)}
              >
                {d.label} ({d.day})
              </button>
            </span>
          ))}
        </p>
      )}
      <p className="note" data-testid="rate-worker-from-meaning">
        {DAY.test(from) ? (
          <>
            The rating applies to this worker’s submissions of {from}
            {chosen ? ` (${chosen.label})` : ''} and after, until their next commit date; earlier
            submissions keep the rating they have.
          </>
        ) : (
          'Pick the day from which the rating applies.'
        )}
      </p>
      <label className="field">
        <span>Note</span>
        <textarea
          rows={2}
          maxLength={2000}
          value={note}
          data-testid="rate-worker-note"
          placeholder="Why (shown in the history)"
          onChange={(e) => setNote(e.target.value)}
        />
      </label>
      {valid && preview && (
        <div className="preview">
          <p data-testid="rating-preview-count">
            <strong>{formatCount(preview.changed)}</strong> annotation
            {preview.changed === 1 ? '' : 's'} of this worker will change effective rating.
          </p>
          <Transitions transitions={preview.transitions} />
        </div>
      )}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </Modal>
  )
}
