import type { TeamLiveStatus } from '../../../../shared/contract/team'
import { api, onEvent } from '../../api'
import { createStore } from '../../lib/store'

/** The open team project's status as main last said; null for a local project. */
export const teamStatus = createStore<TeamLiveStatus | null>(null)

let started = false

export function startTeamFeed(): void {
  if (started) return
  started = true
  onEvent('team.status', (status) => teamStatus.set(status))
  // The event may have gone out before the page listened (a project opened at start).
  api.team
    .status({})
    .then((status) => teamStatus.set(status))
    .catch(() => undefined)
}
