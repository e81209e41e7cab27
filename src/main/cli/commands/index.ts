import { collectionCommands } from '../../collections/registry'
import type { Command } from '../command'
import { exportCommand } from './export'
import { auditCommand } from './audit'
import { historyCommand } from './history'
import { importCommand } from './import'
import { policyCommand } from './policy'
import { pullCommand } from './pull'
import { queryCommand } from './query'
import { rateCommand } from './rate'
import { revertCommand } from './revert'
import { serveCommand } from './serve'
import { statsCommand } from './stats'
import { synthCommand } from './synth'
import { teamCommand } from './team'
import { triageCommand } from './triage'
import { workerCommand } from './worker'

/** Every `winnow` command, in the order `winnow --help` lists them: the core's, then each collection's. */
export const commands: Command[] = [
  importCommand,
  statsCommand,
  queryCommand,
  rateCommand,
  historyCommand,
  revertCommand,
  exportCommand,
  policyCommand,
  synthCommand,
  serveCommand,
  pullCommand,
  workerCommand,
  triageCommand,
  auditCommand,
  teamCommand,
  ...collectionCommands,
]
