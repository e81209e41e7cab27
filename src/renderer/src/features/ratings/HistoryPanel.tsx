import { useEffect, useState } from 'react'
import type { ChangeSetSummary, RatingResult } from '../../../../shared/contract/ratings'
import { api } from '../../api'
import { formatCount, formatInstant } from '../../lib/format'
import { useStore } from '../../lib/store'
import { showError } from '../messages/messages'
import { PolicyRunDetails } from '../policies/PolicyRunDetails'
import { projectState } from '../project/project'
import { PanelHead } from '../shell/PanelHead'
import { ConfirmRating } from './ConfirmRating'
import { viewAsOf } from './asOfView'
import { changesRating, describeRevert, historyVersion, ratingsVersion } from './ratingState'
import { Transitions } from './Transitions'

const PAGE = 50

const KIND_LABEL: Record<ChangeSetSummary['kind'], string> = {
  import: 'import',
  manual: 'manual',
  bulk: 'bulk',
  policy: 'policy',
  revert: 'revert',
  mturk: 'MTurk',
  triage: 'triage',
  audit: 'audit',
  setting: 'setting',
  crowdaq: 'CROWDAQ',
  protoqa: 'ProtoQA',
}

/** A revert reads as the undo or redo it is. */
function kindLabel(cs: ChangeSetSummary): string {
  if (cs.revertOf) return cs.revertOf.redo ? 'redo' : 'undo'
  return KIND_LABEL[cs.kind]
}

/**
 * Every change set, newest first: who, when, what, how many; revert any; view the past as of one.
 * Opened on a change set (`changeSet`), it scrolls to it and marks it.
 */
export function HistoryPanel({ onClose, changeSet }: { onClose: () => void; changeSet?: number }) {
  const version = useStore(ratingsVersion)
  const recorded = useStore(historyVersion)
  const { dataVersion } = useStore(projectState)
  const [items, setItems] = useState<ChangeSetSummary[] | null>(null)
  const [more, setMore] = useState(false)
  const [reverting, setReverting] = useState<ChangeSetSummary | null>(null)

  useEffect(() => {
    let live = true
    api.ratings
      .history({ limit: PAGE })
      .then(({ changeSets }) => {
        if (!live) return
        setItems(changeSets)
        setMore(changeSets.length === PAGE)
      })
      .catch((e: unknown) => showError('Reading the history', e))
    return () => {
      live = false
    }
  }, [version, recorded, dataVersion])

  function loadMore() {
    const last = items?.[items.length - 1]
    if (!last) return
    api.ratings
      .history({ limit: PAGE, beforeId: last.id })
      .then(({ changeSets }) => {
        setItems((current) => [...(current ?? []), ...changeSets])
        setMore(changeSets.length === PAGE)
      })
      .catch((e: unknown) => showError('Reading the history', e))
  }

  return (
    <section className="side-panel history-panel" data-testid="history-panel" aria-label="History">
      <PanelHead title="History" onClose={onClose} />
      <div className="side-body">
        {items === null && <p className="note">Loading…</p>}
        {items?.length === 0 && <p className="note">No changes yet.</p>}
        <ol className="history-list">
          {items?.map((cs) => (
            <li
              key={cs.id}
              className={`history-item ${cs.revertedBy !== null ? 'is-reverted' : ''} ${cs.id === changeSet ? 'is-marked' : ''}`}
              data-testid="history-item"
              aria-current={cs.id === changeSet ? 'true' : undefined}
              ref={
                cs.id === changeSet ? (li) => li?.scrollIntoView({ block: 'nearest' }) : undefined
              }
            >
              <div className="history-head">
                <span className="history-id">#{cs.id}</span>
                <span className={`kind kind-${cs.kind}`} data-testid="history-kind">
                  {kindLabel(cs)}
                </span>
                <span className="note">{formatInstant(cs.at)}</span>
                <span className="note">{cs.author}</span>
              </div>
              <div className="history-desc" data-testid="history-description">
                {cs.description}
              </div>
              <div className="history-meta">
                {(cs.changed > 0 || changesRating(cs.revertOf?.kind ?? cs.kind)) && (
                  <span>{formatCount(cs.changed)} changed</span>
                )}
                {cs.reverts !== null && <span>reverts #{cs.reverts}</span>}
                {cs.revertedBy !== null && (
                  <span className="warn-text">reverted by #{cs.revertedBy}</span>
                )}
              </div>
              {cs.transitions.length > 0 && (
                <details>
                  <summary>From → to</summary>
                  <Transitions transitions={cs.transitions} />
                </details>
              )}
              {cs.kind === 'policy' && <PolicyRunDetails changeSetId={cs.id} />}
              <div className="history-actions">
                <button
                  className="small"
                  data-testid="history-as-of"
                  onClick={() => viewAsOf(cs.at, cs.id)}
                  title="Show ratings as recorded right after this change set"
                >
                  As of #{cs.id}
                </button>
                {cs.revertedBy === null && cs.revertable && (
                  <button
                    className="small"
                    data-testid="history-revert"
                    onClick={() => setReverting(cs)}
                  >
                    Revert…
                  </button>
                )}
              </div>
            </li>
          ))}
        </ol>
        {more && (
          <button className="small" onClick={loadMore}>
            Older…
          </button>
        )}
      </div>
      {reverting && (
        <ConfirmRating
          title={`Revert change set #${reverting.id}`}
          summary={`Revert “${reverting.description}”. Rows are added, never deleted; the revert can itself be reverted.`}
          confirmLabel="Revert"
          run={(preview) => api.ratings.revert({ changeSetId: reverting.id, preview })}
          {...(changesRating(reverting.revertOf?.kind ?? reverting.kind)
            ? {}
            : { describe: (result: RatingResult) => describeRevert(result) })}
          onClose={() => setReverting(null)}
        />
      )}
    </section>
  )
}
