import type { ExamSettings } from '../../../shared/crowdaq/grading'
import type { ExamSpec, TutorialSpec } from '../../../shared/crowdaq/spec'
import type { EntryRow } from '../../db/queries/changes/entries'
import type { Db } from '../../db/types'
import { writeQuestionSet } from './questionSets'
import { setExamSettings } from './db/specs'

/**
 * Applies a CROWDAQ change entry another replica made, through the code that saves it here
 * (`recordChange` leaves these to it); false for an entry that is not CROWDAQ's.
 */
export function applyCrowdaqEntry(db: Db, row: EntryRow, changeSetId: number): boolean {
  if (row.subject === 'crowdaq.question-set' && row.value !== null) {
    writeQuestionSet(db, JSON.parse(row.value) as ExamSpec | TutorialSpec, changeSetId)
    return true
  }
  if (row.subject === 'crowdaq.exam-settings' && row.value !== null) {
    const key = JSON.parse(row.key) as { exam: string }
    setExamSettings(db, key.exam, JSON.parse(row.value) as ExamSettings)
    return true
  }
  return false
}
