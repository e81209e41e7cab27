import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** The thread entries of the main build (electron.vite.config.ts) that an import or a pull starts. */
const WORKERS = [
  'src/main/tasks/task-worker.ts',
  'src/main/importers/read-ahead-worker.ts',
  'src/main/mturk/pull-store-worker.ts',
]

/** What the task thread loads for an import (its tasks load their modules when they run). */
const IMPORT_TASK = 'src/main/importers/intoProject.ts'

/** The packages a module loads at run time, through its own and its local modules' imports. */
function packagesLoadedBy(entry: string): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string): void => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    // Type-only imports and re-exports vanish from the build; the rest load with the module.
    for (const m of source.matchAll(/^(?:import|export)\s+(?!type\s)[^'";]*?from\s+'([^']+)'/gm)) {
      const specifier = m[1] ?? ''
      if (!specifier.startsWith('.')) {
        packages.add(specifier)
        continue
      }
      const base = resolve(dirname(file), specifier)
      const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => existsSync(f))
      if (found === undefined) throw new Error(`${file}: cannot resolve ${specifier}`)
      visit(found)
    }
  }
  visit(join(root, entry))
  return packages
}

describe('worker threads', () => {
  // Loading zod takes ~35 ms, a tenth of a small import; only main validates API arguments.
  it.each(WORKERS)('%s starts without zod', (entry) => {
    const packages = packagesLoadedBy(entry)
    expect(packages.has('node:worker_threads')).toBe(true)
    expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/'))).toEqual([])
  })

  it('the task thread runs an import without zod', () => {
    const packages = packagesLoadedBy(IMPORT_TASK)
    expect(packages.has('better-sqlite3')).toBe(true)
    expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/'))).toEqual([])
  })
})
