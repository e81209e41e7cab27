import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeReleaseCsv } from '../../tests/helpers/csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'

/** Generated inputs are cached here between runs (gitignored). */
export const dataDir = join(dirname(fileURLToPath(import.meta.url)), '..', '.data')

/** A release-layout CSV of `rows` generated submissions (seed fixed), made once and cached. */
export function releaseCsv(rows: number): string {
  mkdirSync(dataDir, { recursive: true })
  const path = join(dataDir, `release-${rows}.csv`)
  if (!existsSync(path)) {
    const partial = `${path}.partial`
    writeReleaseCsv(partial, generateSubmissions({ count: rows, seed: 65521 }), {
      workerStyle: 'int',
      ratingStyle: 'int',
    })
    renameSync(partial, path)
  }
  return path
}
