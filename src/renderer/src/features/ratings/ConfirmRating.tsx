import { useEffect, useState } from 'react'
import type { ApiErrorInfo } from '../../../../shared/contract'
import type { RatingResult } from '../../../../shared/contract/ratings'
import { errorParts, toErrorInfo } from '../../lib/errors'
import { formatCount } from '../../lib/format'
import { WriteJobProgress } from '../jobs/WriteJobProgress'
import { ErrorText } from '../messages/Messages'
import { showInfo } from '../messages/messages'
import { Modal } from '../shell/Modal'
import { describeResult, inTurn, ratingsChanged } from './ratingState'
import { Transitions } from './Transitions'

interface ConfirmRatingProps {
  title: string
  /** What will happen, in words ("Rate 1,204 annotations of this query 2"). */
  summary: string
  confirmLabel: string
  /** Runs the action; with `preview` it must write nothing. */
  run: (preview: boolean) => Promise<RatingResult>
  /** What it does in words, when that is not a move of ratings (reverting a triage mark…). */
  describe?: (result: RatingResult) => string
  onClose: () => void
}

/**
 * Every bulk rating and every revert is previewed first: the dialog states how many annotations
 * move from which rating to which, and only Confirm writes the change set. A large one is written
 * as a job: the dialog shows its progress and can cancel it (nothing is kept).
 */
export function ConfirmRating({
  title,
  summary,
  confirmLabel,
  run,
  describe,
  onClose,
}: ConfirmRatingProps) {
  const [preview, setPreview] = useState<RatingResult | null>(null)
  const [error, setError] = useState<ApiErrorInfo | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    run(true)
      .then((r) => live && setPreview(r))
      .catch((e: unknown) => live && setError(toErrorInfo(e)))
    return () => {
      live = false
    }
    // The preview is taken once, for the action as it was when the dialog opened.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])

  async function confirm() {
    setBusy(true)
    try {
      const result = await inTurn(() => run(false))
      showInfo(`${describe ? describe(result) : describeResult(result)}.`)
      ratingsChanged()
      onClose()
    } catch (e) {
      const info = toErrorInfo(e)
      setBusy(false)
      if (info.type === 'cancelled') {
        showInfo(info.message)
        onClose()
      } else {
        setError(info)
      }
    }
  }

  return (
    <Modal
      title={title}
      onClose={onClose}
      testId="rating-confirm"
      footer={
        <>
          <button onClick={onClose}>Cancel</button>
          <button
            className="primary"
            data-testid="rating-confirm-button"
            disabled={!preview || busy}
            onClick={() => void confirm()}
          >
            {confirmLabel}
          </button>
        </>
      }
    >
      <p>{summary}</p>
      {!preview && !error && <p className="note busy">Working out what changes…</p>}
      {preview && describe && <p data-testid="rating-preview-count">{describe(preview)}.</p>}
      {preview && !describe && (
        <>
          <p data-testid="rating-preview-count">
            <strong>{formatCount(preview.changed)}</strong> annotation
            {preview.changed === 1 ? '' : 's'} will change effective rating.
          </p>
          <Transitions transitions={preview.transitions} />
        </>
      )}
      {(busy || !preview) && !error && <WriteJobProgress />}
      {error && (
        <div className="error-box" role="alert" data-testid="error-message">
          <ErrorText {...errorParts(error)} />
        </div>
      )}
    </Modal>
  )
}
