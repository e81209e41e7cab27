import { type CollectionTeam, sharedTable as t } from '../team'
import { protoqaCodec } from './teamCodec'

/**
 * ProtoQA's share of a team: questions, answers, responses, clusterings and predictions. A
 * clustering saved after publishing travels as its change set (team/codecs.ts); an import after
 * publishing travels with it, its rows under ids of the replica's band; one that adds raw answers
 * to a question an earlier change set brought sends that question's answers to be updated.
 */
export const protoqaTeam: CollectionTeam = {
  tables: [
    t(
      'protoqa_questions',
      [
        ['id', 'int'],
        ['external_id', 'text'],
        ['source', 'text'],
        ['original', 'text'],
        ['normalized', 'text'],
        ['change_set_uid', 'uid'],
        ['source_file_id', 'int'],
      ],
      { unique: [['external_id']] },
    ),
    t(
      'protoqa_answers',
      [
        ['id', 'int'],
        ['question_id', 'int'],
        ['text', 'text'],
        ['count', 'int'],
      ],
      {
        unique: [['question_id', 'text']],
        owner: { column: 'question_id', table: 'protoqa_questions' },
        // A question given raw answers counts its responses (one given counts cannot grow).
        counts: { column: 'count', table: 'protoqa_responses', by: 'answer_id' },
      },
    ),
    t(
      'protoqa_responses',
      [
        ['id', 'int'],
        ['question_id', 'int'],
        ['answer_id', 'int'],
        ['worker_id', 'int'],
        ['given', 'text'],
        ['source_file_id', 'int'],
        ['line', 'int'],
      ],
      {
        unique: [['question_id', 'worker_id']],
        owner: { column: 'source_file_id', table: 'source_files' },
        worker: 'worker_id',
      },
    ),
    t('protoqa_clusterings', [
      ['id', 'int'],
      ['question_id', 'int'],
      ['role', 'text'],
      ['author', 'text'],
      ['decided_by', 'text'],
      ['recorded_at', 'int'],
      ['change_set_uid', 'uid'],
    ]),
    t(
      'protoqa_clusters',
      [
        ['clustering_id', 'int'],
        ['position', 'int'],
        ['label', 'text'],
        ['name', 'text'],
        ['declared_count', 'int'],
      ],
      {
        key: ['clustering_id', 'position'],
        owner: { column: 'clustering_id', table: 'protoqa_clusterings' },
      },
    ),
    t(
      'protoqa_cluster_answers',
      [
        ['clustering_id', 'int'],
        ['answer_id', 'int'],
        ['cluster', 'int'],
        ['member_order', 'int'],
        ['fixed', 'text'],
      ],
      {
        key: ['clustering_id', 'answer_id'],
        owner: { column: 'clustering_id', table: 'protoqa_clusterings' },
      },
    ),
    t('protoqa_prediction_sets', [
      ['id', 'int'],
      ['name', 'text'],
      ['source_file_id', 'int'],
      ['change_set_uid', 'uid'],
    ]),
    t(
      'protoqa_predictions',
      [
        ['set_id', 'int'],
        ['question', 'text'],
        ['rank', 'int'],
        ['answer', 'text'],
      ],
      {
        key: ['set_id', 'question', 'rank'],
        owner: { column: 'set_id', table: 'protoqa_prediction_sets' },
      },
    ),
  ],
  importFormats: ['protoqa-questions', 'protoqa-answers', 'protoqa-predictions'],
  codecs: { protoqa: protoqaCodec },
}
