import type { crowdaqCalls } from '../../../shared/crowdaq/contract'
import type { Collection } from '../collection'
import { crowdaqHandlers } from './api'
import { crowdaqCommand } from './command'
import { examCommand } from './examCommand'
import { crowdaqImporter } from './importer'
import { crowdaqSchema } from './schema'
import { crowdaqTeam } from './team'

/** CROWDAQ: instructions, tutorials, exams and tasks; grading, reports, qualifying. */
export const crowdaq = {
  id: 'crowdaq',
  schema: crowdaqSchema,
  team: crowdaqTeam,
  importer: crowdaqImporter,
  handlers: crowdaqHandlers,
  commands: [crowdaqCommand, examCommand],
} satisfies Collection<keyof typeof crowdaqCalls>
