import type { CollectionSchema } from '../schema'
import m014 from './db/migrations/014-halie'
import m016 from './db/migrations/016-halie-ratings'

export const halieSchema: CollectionSchema = {
  id: 'halie',
  migrations: [m014, m016],
  holds: ['halie_sessions'],
}
