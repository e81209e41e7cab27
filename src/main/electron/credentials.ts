import { safeStorage } from 'electron'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { UserError } from '../../shared/contract/errors'
import type { MTurkCredentials } from '../mturk/client'
import { type SecretStore, credentialInfo, environmentSecrets } from '../mturk/credentials'

/**
 * The desktop app's MTurk key pair: encrypted with the OS keychain through Electron's safeStorage
 * into one file in the app's own data folder (never a project file). Until a pair is saved, the
 * AWS environment variables and shared credentials file are used, as on the command line.
 */
export function safeStorageSecrets(file: string): SecretStore {
  const fallback = environmentSecrets()
  const load = (): MTurkCredentials | null => {
    if (!existsSync(file) || !safeStorage.isEncryptionAvailable()) return null
    try {
      const pair = JSON.parse(
        safeStorage.decryptString(readFileSync(file)),
      ) as Partial<MTurkCredentials>
      return pair.accessKeyId && pair.secretAccessKey
        ? { accessKeyId: pair.accessKeyId, secretAccessKey: pair.secretAccessKey }
        : null
    } catch {
      // Written under another OS account or keychain: unusable, as if absent.
      return null
    }
  }
  return {
    read: () => load() ?? fallback.read(),
    describe: () => {
      const saved = load()
      if (saved) return credentialInfo('keychain', keychainLabel(), saved, true)
      return { ...fallback.describe(), editable: true }
    },
    save: (credentials) => {
      if (!keychainAvailable()) {
        throw new UserError({
          type: 'conflict',
          code: 'mturk-no-keychain',
          message:
            'This system offers no keychain to encrypt the key with. Set AWS_ACCESS_KEY_ID and ' +
            'AWS_SECRET_ACCESS_KEY (or an AWS profile) before starting Winnow instead.',
        })
      }
      const pair = {
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
      }
      writeFileSync(file, safeStorage.encryptString(JSON.stringify(pair)), { mode: 0o600 })
    },
    clear: () => rmSync(file, { force: true }),
  }
}

/** Linux without a keyring falls back to a fixed key (`basic_text`): that is not encryption. */
export function keychainAvailable(): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false
  return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text'
}

function keychainLabel(): string {
  const backend =
    process.platform === 'linux' ? ` (${safeStorage.getSelectedStorageBackend()})` : ''
  return `saved in this app, encrypted with the system keychain${backend}`
}
