import { safeStorage } from 'electron'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { UserError } from '../../shared/contract/errors'
import type { TeamPasswords } from '../team/passwords'
import { keychainAvailable } from './credentials'

/**
 * Team members' passwords in the desktop app: one file in the app's own data folder holding the
 * map of server address to password, encrypted with the system keychain through safeStorage.
 */
export function safeStorageTeamPasswords(file: string): TeamPasswords {
  const load = (): Record<string, string> => {
    if (!existsSync(file) || !safeStorage.isEncryptionAvailable()) return {}
    try {
      const saved: unknown = JSON.parse(safeStorage.decryptString(readFileSync(file)))
      return saved !== null && typeof saved === 'object' ? (saved as Record<string, string>) : {}
    } catch {
      // Written under another OS account or keychain: unusable, as if absent.
      return {}
    }
  }
  return {
    read: (server) => {
      const password = load()[server]
      return typeof password === 'string' ? password : null
    },
    save: (server, password) => {
      if (!keychainAvailable()) {
        throw new UserError({
          type: 'conflict',
          code: 'team-no-keychain',
          message:
            'This system offers no keychain to encrypt the password with. Leave the password empty and set PGPASSWORD, or add a line to ~/.pgpass, before starting Winnow.',
          field: 'password',
        })
      }
      const all = { ...load(), [server]: password }
      writeFileSync(file, safeStorage.encryptString(JSON.stringify(all)), { mode: 0o600 })
    },
  }
}
