import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openProject } from '../../src/main/db/connection'
import { openGlucoseFile } from '../../src/main/importers/glucose/open'
import { importFiles } from '../../src/main/importers/run'
import { annotationFlags, flagsByGrammar } from '../../src/shared/glucose/grammar'
import { useTempDir } from '../helpers/tmp'

// The real public samples, where the shared data folder sits beside the project (CI has it).
const samples = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'glucose')
const present = existsSync(samples)
if (!present)
  console.warn(`public GLUCOSE samples not found at ${samples}; their import test is skipped`)

describe.skipIf(!present)('importing the public GLUCOSE samples', () => {
  const tempDir = useTempDir()

  it('reads all four layouts, keeps every cell and adds nothing on a second import', () => {
    const db = openProject(join(tempDir(), 'samples.winnow'), { create: true })
    const files = [
      'release_layout_sample.csv',
      'dim_3_sample.csv',
      'test_set_answer_key_sample.csv',
      'test_set_no_answers_sample.csv',
    ].map((name) => ({ path: join(samples, name) }))
    const result = importFiles(db, files, { year: 2019 })
    expect(result.files.map((f) => [f.format, f.records])).toEqual([
      ['glucose-release', 12],
      ['glucose-dimension', 12],
      ['glucose-test', 10],
      ['glucose-test', 10],
    ])
    // The answer key and the no-answers file describe the same 10 rows.
    expect(result.files[3]?.submissions).toBe(0)
    const dirty = db
      .prepare("SELECT count(*) FROM annotation_texts WHERE specific_nl LIKE '%  %'")
      .pluck()
      .get() as number
    expect(dirty).toBeGreaterThan(0)
    const again = importFiles(db, files, { year: 2019 })
    expect(again).toMatchObject({ submissions: 0, annotations: 0 })
    db.close()
  })

  it('flags their cells the same with the shortcut for plain cells as with the full grammar', () => {
    let clean = 0
    for (const name of ['release_layout_sample.csv', 'dim_3_sample.csv']) {
      for (const row of openGlucoseFile(join(samples, name), { year: 2019 }).records()) {
        for (const a of row.annotations) {
          const flags = flagsByGrammar(a.dimension, a)
          if (flags === 0) clean++
          expect(annotationFlags(a.dimension, a)).toBe(flags)
        }
      }
    }
    expect(clean).toBeGreaterThan(50)
  })
})
