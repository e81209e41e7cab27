import { UserError } from '../../shared/contract/errors'
import type { jobCalls } from '../../shared/contract/jobs'
import type { Handlers } from './handlers'

export const jobHandlers: Handlers<keyof typeof jobCalls> = {
  'jobs.list': (_args, { session }) => session.jobs.list(),
  'jobs.get': ({ id }, { session }) => {
    const job = session.jobs.get(id)
    if (!job)
      throw new UserError({ type: 'not-found', code: 'no-such-job', message: `No job ${id}.` })
    return job
  },
  'jobs.cancel': ({ id }, { session }) => ({ cancelled: session.jobs.cancel(id) }),
}
