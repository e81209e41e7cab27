import { type CollectionTeam, sharedTable as t } from '../team'

/**
 * CROWDAQ's share of a team: instructions, tutorials, exams with their questions, tasks,
 * attempts and assignments. An edit after publishing travels as its change set's entries
 * (`applyCrowdaqEntry` writes them on another replica); an import after publishing travels with
 * its change set, attempts and assignments under ids of the replica's band (exams, tutorials,
 * instructions and tasks keep their own names; one the team holds already is sent to be updated).
 */
export const crowdaqTeam: CollectionTeam = {
  tables: [
    t('crowdaq_instructions', [
      ['id', 'text'],
      ['markdown', 'text'],
      ['change_set_uid', 'uid'],
    ]),
    t('crowdaq_tutorials', [
      ['id', 'text'],
      ['instruction_id', 'text'],
      ['spec', 'text'],
      ['change_set_uid', 'uid'],
    ]),
    t('crowdaq_exams', [
      ['id', 'text'],
      ['instruction_id', 'text'],
      ['tutorial_id', 'text'],
      ['questions_per_attempt', 'int'],
      ['passing_grade', 'real'],
      ['attempts_allowed', 'int'],
      ['time_limit_seconds', 'int'],
      ['qualification_type_id', 'text'],
      ['bands', 'text'],
      ['change_set_uid', 'uid'],
    ]),
    t(
      'crowdaq_questions',
      [
        ['exam_id', 'text'],
        ['question_id', 'text'],
        ['position', 'int'],
        ['answer', 'text'],
        ['enabled', 'int'],
        ['spec', 'text'],
      ],
      { key: ['exam_id', 'question_id'], owner: { column: 'exam_id', table: 'crowdaq_exams' } },
    ),
    t('crowdaq_tasks', [
      ['id', 'text'],
      ['spec', 'text'],
      ['change_set_uid', 'uid'],
    ]),
    t(
      'crowdaq_exam_attempts',
      [
        ['id', 'int'],
        ['exam_id', 'text'],
        ['worker_id', 'int'],
        ['platform', 'text'],
        ['source', 'text'],
        ['source_key', 'text'],
        ['completed_at', 'int'],
        ['source_order', 'int'],
        ['change_set_uid', 'uid'],
        ['started_at', 'int'],
        ['deadline', 'int'],
      ],
      { unique: [['source_key']], worker: 'worker_id' },
    ),
    t(
      'crowdaq_attempt_answers',
      [
        ['attempt_id', 'int'],
        ['question_id', 'text'],
        ['answer', 'text'],
      ],
      {
        key: ['attempt_id', 'question_id'],
        owner: { column: 'attempt_id', table: 'crowdaq_exam_attempts' },
      },
    ),
    t(
      'crowdaq_task_assignments',
      [
        ['id', 'int'],
        ['task_id', 'text'],
        ['worker_id', 'int'],
        ['platform', 'text'],
        ['started_at', 'int'],
        ['completed_at', 'int'],
        ['response', 'text'],
        ['change_set_uid', 'uid'],
      ],
      { unique: [['task_id', 'worker_id']], worker: 'worker_id' },
    ),
  ],
  importFormats: [],
}
