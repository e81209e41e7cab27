import { userInfo } from 'node:os'

/** Who a change set is by: the local account (one reviewer per project file for now). */
export function localAuthor(): string {
  try {
    return userInfo().username || 'local'
  } catch {
    return 'local'
  }
}
