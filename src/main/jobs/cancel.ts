import { UserError } from '../../shared/contract/errors'

/** Thrown inside a job when the user cancels; the job's transaction rolls back. */
export class CancelledError extends UserError {
  constructor(message = 'Cancelled; nothing was changed.') {
    super({ type: 'cancelled', code: 'cancelled', message })
    this.name = 'CancelledError'
  }
}
