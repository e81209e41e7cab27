import type { CollectionSchema } from '../schema'
import m014 from './db/migrations/014-halie'

export const halieSchema: CollectionSchema = {
  id: 'halie',
  migrations: [m014],
  holds: ['halie_sessions'],
}
