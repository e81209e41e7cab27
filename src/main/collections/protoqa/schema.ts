import type { CollectionSchema } from '../schema'
import m007 from './db/migrations/007-protoqa'

export const protoqaSchema: CollectionSchema = {
  id: 'protoqa',
  migrations: [m007],
  // A prediction set alone is ProtoQA work too.
  holds: ['protoqa_questions', 'protoqa_prediction_sets'],
}
