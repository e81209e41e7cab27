import type { dashboardCalls } from '../../shared/contract/dashboard'
import { dashboard } from '../dashboard/charts'
import type { Handlers } from './handlers'

export const dashboardHandlers: Handlers<keyof typeof dashboardCalls> = {
  'dashboard.submissionsPerDay': (_args, { session }) =>
    dashboard.submissionsPerDay(session.project().db),
  'dashboard.dimensions': (_args, { session }) => dashboard.dimensions(session.project().db),
  'dashboard.ratings': (_args, { session }) => dashboard.ratings(session.project().db),
  'dashboard.tierOverTime': (_args, { session }) => dashboard.tierOverTime(session.project().db),
  'dashboard.workerDimensions': ({ limit }, { session }) =>
    dashboard.workerDimensions(session.project().db, limit),
}
