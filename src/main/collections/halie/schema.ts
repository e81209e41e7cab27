import type { CollectionSchema } from '../schema'
import m014 from './db/migrations/014-halie'
import m016 from './db/migrations/016-halie-ratings'
import m021 from './db/migrations/021-halie-changed-sessions'
import m024 from './db/migrations/024-halie-changed-session-values'

export const halieSchema: CollectionSchema = {
  id: 'halie',
  migrations: [m014, m016, m021, m024],
  holds: ['halie_sessions'],
}
