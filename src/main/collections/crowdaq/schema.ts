import type { CollectionSchema } from '../schema'
import m011 from './db/migrations/011-crowdaq'
import m013 from './db/migrations/013-crowdaq-attempt-times'

export const crowdaqSchema: CollectionSchema = {
  id: 'crowdaq',
  migrations: [m011, m013],
  // Task results alone are CROWDAQ work too.
  holds: [
    'crowdaq_instructions',
    'crowdaq_tutorials',
    'crowdaq_exams',
    'crowdaq_tasks',
    'crowdaq_task_assignments',
  ],
}
