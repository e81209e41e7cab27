import type { ExamSpec, TutorialSpec } from '../../../shared/crowdaq/spec'
import type { Db } from '../../db/types'
import { examQuestions, putExam, putTutorial, setQuestionEnabled } from './db/specs'
import { examInput } from './import/items'

/**
 * Writes a checked exam or tutorial as change set `changeSet` saved it; a team replica applies a
 * saved one it pulled through this too. Questions left out are disabled, never deleted.
 */
export function writeQuestionSet(db: Db, spec: ExamSpec | TutorialSpec, changeSet: number): void {
  if ('exam_id' in spec) {
    putExam(db, examInput(spec), changeSet)
    const kept = new Set(spec.question_set.map((q) => q.question_id))
    for (const q of examQuestions(db, spec.exam_id)) {
      if (!kept.has(q.questionId)) setQuestionEnabled(db, spec.exam_id, q.questionId, false)
    }
  } else {
    const id = spec.tutorial_id
    putTutorial(db, { id, instructionId: spec.instruction_id ?? null, spec }, changeSet)
  }
}
