import type { protoqaCalls } from '../../../shared/protoqa/contract'
import type { Collection } from '../collection'
import { protoqaHandlers } from './api'
import { protoqaCommand } from './command'
import { protoqaImporter } from './importer'
import { protoqaReleaseWriter } from './release/command'
import { protoqaSchema } from './schema'
import { protoqaTeam } from './team'

/** ProtoQA: questions, answer lists, clusterings, adjudication, scoring of predictions. */
export const protoqa = {
  id: 'protoqa',
  schema: protoqaSchema,
  team: protoqaTeam,
  importer: protoqaImporter,
  handlers: protoqaHandlers,
  commands: [protoqaCommand],
  release: protoqaReleaseWriter,
} satisfies Collection<keyof typeof protoqaCalls>
