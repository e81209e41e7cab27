import { join } from 'node:path'
import type { Db } from '../../src/main/db/connection'
import { examRow, setExamSettings } from '../../src/main/collections/crowdaq/db/specs'
import { importCrowdaq } from '../../src/main/collections/crowdaq/import/import'
import type { Band } from '../../src/shared/crowdaq/grading'

const FIXTURES = join(__dirname, '..', 'fixtures', 'crowdaq')
export const fixture = (name: string): string => join(FIXTURES, name)

/**
 * fx_exam with its attempts (export rows and a CSV) in `db`, its bands replaced by `bands`:
 * what qualifying starts from.
 */
export function examWithBands(db: Db, bands: Band[]): void {
  for (const f of ['exam.json', 'exam_assignments.json', 'attempts.csv'])
    importCrowdaq(db, fixture(f), { author: 'test' })
  const exam = examRow(db, 'fx_exam')
  if (!exam) throw new Error('no exam')
  setExamSettings(db, 'fx_exam', { ...exam.settings, bands })
}
