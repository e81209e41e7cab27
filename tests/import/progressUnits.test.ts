import { statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import { type ImportProgress, importFiles } from '../../src/main/importers/run'
import { releaseCsv } from '../helpers/glucose'
import { useTempDir } from '../helpers/tmp'

const tempDir = useTempDir()
const crowdaq = (name: string): string => join(import.meta.dirname, '../fixtures/crowdaq', name)

describe('an import’s progress', () => {
  it('counts a GLUCOSE import in bytes of the files read', () => {
    const dir = tempDir()
    const csv = releaseCsv(dir, 'release.csv', 2100, 4)
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    const seen: ImportProgress[] = []
    importFiles(db, [{ path: csv }], {}, { progress: (p) => seen.push(p) })
    db.close()
    const size = statSync(csv).size
    expect(seen.length).toBeGreaterThan(1)
    expect(seen.every((p) => p.unit === 'bytes' && p.total === size && p.done <= size)).toBe(true)
    expect(seen.at(-1)?.done).toBe(size)
  })

  it('counts a CROWDAQ import in items, in fields that say so', () => {
    const dir = tempDir()
    const db = openProject(join(dir, 'p.winnow'), { create: true })
    importCrowdaq(db, crowdaq('task.json'), { author: 'test' })
    const seen: ImportProgress[] = []
    importCrowdaq(
      db,
      crowdaq('task_assignments.json'),
      { author: 'test' },
      {
        progress: (p) => seen.push(p),
      },
    )
    db.close()
    expect(seen.map((p) => [p.step, p.unit, p.done, p.total])).toEqual([
      ['Reading files', 'items', 0, 0],
      ['Checking 5 items', 'items', 0, 5],
      ['Writing 5 items', 'items', 0, 5],
    ])
  })
})
