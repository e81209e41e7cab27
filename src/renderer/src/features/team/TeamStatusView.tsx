import { useState } from 'react'
import type { TeamLiveStatus } from '../../../../shared/contract/team'
import { api } from '../../api'
import { toErrorInfo } from '../../lib/errors'
import { plural } from '../../lib/format'
import { useStore } from '../../lib/store'
import { teamStatus } from './teamState'
import './team.css'

/**
 * The status bar's team part: synced, how many change sets wait to be pushed, offline (and when
 * the server was last reached), and who else is working. Text only; a live region, politely.
 */
export function TeamStatusView() {
  const status = useStore(teamStatus)
  const [withdrawing, setWithdrawing] = useState(false)
  const [failed, setFailed] = useState<string | null>(null)
  if (!status) return null
  const refused = status.refused
  // The refused change set is reverted here only, so the work behind it can go.
  const withdraw = (changeSetId: number): void => {
    setWithdrawing(true)
    setFailed(null)
    api.team
      .withdraw({ changeSetId })
      .then((next) => teamStatus.set(next))
      .catch((error: unknown) => setFailed(toErrorInfo(error).message))
      .finally(() => setWithdrawing(false))
  }
  const others = status.others.length > 0 ? `also working: ${status.others.join(', ')}` : null
  return (
    <span
      className={`team-status team-${status.connection}`}
      role="status"
      aria-live="polite"
      data-testid="team-status"
      data-connection={status.connection}
      data-pending={status.pending}
      title={`${status.member} (${status.role}) on ${status.server}`}
    >
      <span data-testid="team-sync">{syncText(status)}</span>
      {status.problem && (
        <span className="team-problem" data-testid="team-problem" title={status.problem}>
          {' · push held: '}
          {status.problem}
        </span>
      )}
      {refused && (
        <>
          {' '}
          <button
            type="button"
            className="team-withdraw"
            data-testid="team-withdraw"
            disabled={withdrawing}
            title={`Revert change set ${refused.changeSetId} (${refused.description}) on this replica only; it never goes to the server, and the work after it pushes`}
            onClick={() => withdraw(refused.changeSetId)}
          >
            Revert it here
          </button>
        </>
      )}
      {failed && (
        <span className="team-problem" data-testid="team-withdraw-failed">
          {` · ${failed}`}
        </span>
      )}
      {status.upgrade && <UpgradeButton />}
      {others && <span data-testid="team-others">{` · ${others}`}</span>}
    </span>
  )
}

/** A lead's offer to bring an older server up to this Winnow's schema; what failed is said. */
function UpgradeButton() {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  })
  const upgrade = (): void => {
    setState({ busy: true, error: null })
    api.team
      .upgrade({})
      .then(() => setState({ busy: false, error: null }))
      .catch((error: unknown) =>
        setState({ busy: false, error: error instanceof Error ? error.message : String(error) }),
      )
  }
  return (
    <>
      {' '}
      <button
        type="button"
        className="team-upgrade"
        data-testid="team-upgrade"
        disabled={state.busy}
        onClick={upgrade}
      >
        {state.busy ? 'Upgrading…' : 'Upgrade server'}
      </button>
      {state.error && (
        <span className="team-problem" data-testid="team-upgrade-error">
          {` ${state.error}`}
        </span>
      )}
    </>
  )
}

function syncText(status: TeamLiveStatus): string {
  const waiting = status.role === 'viewer' ? 'kept here (viewer)' : 'waiting to push'
  const pending = status.pending > 0 ? `${plural(status.pending, 'change set')} ${waiting}` : null
  if (status.connection === 'connecting')
    return pending ? `Connecting… · ${pending}` : 'Connecting…'
  if (status.connection === 'offline') {
    const last =
      status.lastContact === null
        ? 'not reached since opening'
        : `last reached ${new Date(status.lastContact).toLocaleTimeString()}`
    return ['Offline', pending, last].filter(Boolean).join(' · ')
  }
  return pending ?? 'Synced'
}
