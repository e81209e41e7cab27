import { join } from 'node:path'
import type { ImportedSubmission } from '../../src/main/importers/types'
import { type ReleaseWriteOptions, writeDimensionCsvs, writeReleaseCsv } from './csv-writers'
import { generateSubmissions } from '../../src/main/synth/glucose'

/**
 * `dir/name`: a release-layout CSV of `count` generated submissions (seeded, so the same every
 * run), with integer worker ids and ratings unless `style` says otherwise.
 */
export function releaseCsv(
  dir: string,
  name: string,
  count: number,
  seed: number,
  style: ReleaseWriteOptions = { workerStyle: 'int', ratingStyle: 'int' },
): string {
  const path = join(dir, name)
  writeReleaseCsv(path, generateSubmissions({ count, seed }), style)
  return path
}

/**
 * The ten per-dimension files (`dim_1.csv` … `dim_10.csv`) of `count` generated submissions, with
 * the submissions they were written from.
 */
export function dimensionCsvs(
  dir: string,
  count: number,
  seed: number,
): { generated: ImportedSubmission[]; files: { path: string }[] } {
  const generated = [...generateSubmissions({ count, seed })]
  writeDimensionCsvs(dir, generated)
  const files = Array.from({ length: 10 }, (_, i) => ({ path: join(dir, `dim_${i + 1}.csv`) }))
  return { generated, files }
}
