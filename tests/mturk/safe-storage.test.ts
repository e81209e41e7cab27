import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { useTempDir } from '../helpers/tmp'
import { CREDENTIALS } from './standin-helpers'

// Electron's safeStorage cannot run here: a stand-in that "encrypts" by flipping bits, so the test
// can see that what reaches the disk is not the key.
const backend = { name: 'gnome_libsecret' }
vi.mock('electron', () => ({
  safeStorage: {
    isEncryptionAvailable: () => true,
    getSelectedStorageBackend: () => backend.name,
    encryptString: (text: string) => Buffer.from(text, 'utf8').map((b) => b ^ 0x5a),
    decryptString: (data: Buffer) => Buffer.from(data.map((b) => b ^ 0x5a)).toString('utf8'),
  },
}))

const { safeStorageSecrets } = await import('../../src/main/electron/credentials')
const tempDir = useTempDir()

describe('the desktop key store', () => {
  it('keeps the pair encrypted in its own file, reads it back, and forgets it', () => {
    const file = join(tempDir(), 'mturk-credentials.bin')
    const store = safeStorageSecrets(file)
    store.save?.(CREDENTIALS)
    const bytes = readFileSync(file).toString('latin1')
    expect(bytes).not.toContain(CREDENTIALS.secretAccessKey)
    expect(bytes).not.toContain(CREDENTIALS.accessKeyId)
    expect(safeStorageSecrets(file).read()).toEqual(CREDENTIALS)
    expect(store.describe()).toMatchObject({
      source: 'keychain',
      set: true,
      editable: true,
      accessKeyHint: '…EYID',
    })
    expect(JSON.stringify(store.describe())).not.toContain(CREDENTIALS.secretAccessKey)
    store.clear?.()
    expect(existsSync(file)).toBe(false)
  })

  // Electron reports the `basic_text` backend only on Linux; elsewhere the case cannot arise.
  it.skipIf(process.platform !== 'linux')(
    'refuses to save where the keychain is a fixed key (Linux basic_text)',
    () => {
      backend.name = 'basic_text'
      const file = join(tempDir(), 'mturk-credentials.bin')
      expect(() => safeStorageSecrets(file).save?.(CREDENTIALS)).toThrow(/no keychain/)
      expect(existsSync(file)).toBe(false)
      backend.name = 'gnome_libsecret'
    },
  )
})
