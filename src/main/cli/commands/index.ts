import type { Command } from '../command'
import { exportCommand } from './export'
import { auditCommand } from './audit'
import { crowdaqCommand } from '../../collections/crowdaq/command'
import { examCommand } from '../../collections/crowdaq/examCommand'
import { halieCommand } from '../../collections/halie/command'
import { historyCommand } from './history'
import { importCommand } from './import'
import { protoqaCommand } from '../../collections/protoqa/command'
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

/** Every `winnow` command, in the order `winnow --help` lists them. */
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
  protoqaCommand,
  triageCommand,
  auditCommand,
  crowdaqCommand,
  examCommand,
  teamCommand,
  halieCommand,
]
