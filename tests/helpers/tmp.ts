import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

/** A fresh folder per test, removed afterwards. */
export function useTempDir(): () => string {
  let dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    dirs = []
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'winnow-test-'))
    dirs.push(dir)
    return dir
  }
}
