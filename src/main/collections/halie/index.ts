import type { halieCalls } from '../../../shared/halie/contract'
import type { Collection } from '../collection'
import { halieHandlers } from './api'
import { halieCommand } from './command'
import { halieImporter } from './importer'
import { halieReleaseWriter } from './releaseCommand'
import { halieSchema } from './schema'
import { halieTeam } from './team'

/** HALIE: human–LM interaction sessions, their logs and replays. */
export const halie = {
  id: 'halie',
  schema: halieSchema,
  team: halieTeam,
  importer: halieImporter,
  handlers: halieHandlers,
  commands: [halieCommand],
  release: halieReleaseWriter,
} satisfies Collection<keyof typeof halieCalls>
