import { type IpcMainInvokeEvent, ipcMain } from 'electron'
import { callNames } from '../../shared/contract'
import type { PickedFile } from '../../shared/contract/imports'
import { dispatch } from '../api/dispatch'
import type { CallContext } from '../api/handlers'

export const CALL_CHANNEL_PREFIX = 'winnow:call:'
export const EVENT_CHANNEL = 'winnow:event'
const GRANT_DROPPED_CHANNEL = 'winnow:grant-dropped'

/**
 * One IPC channel per contract call. Senders that are not our window's main frame are ignored,
 * and every argument is validated by `dispatch` against the call's schema.
 */
export function registerIpc(
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean,
  context: () => CallContext,
): void {
  for (const name of callNames) {
    ipcMain.handle(CALL_CHANNEL_PREFIX + name, async (event, args: unknown) => {
      if (!isTrustedSender(event)) {
        return {
          ok: false,
          error: { type: 'invalid-argument', code: 'untrusted-sender', message: 'refused' },
        }
      }
      return await dispatch(name, args, context())
    })
  }
  ipcMain.handle(GRANT_DROPPED_CHANNEL, (event, path: unknown): PickedFile | null => {
    if (!isTrustedSender(event) || typeof path !== 'string' || path === '') return null
    return context().session.grantFile(path)
  })
}
