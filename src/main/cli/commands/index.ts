import type { Command } from '../command'
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
import { workerCommand } from './worker'

/** Every `winnow` command, in the order `winnow --help` lists them. */
export const commands: Command[] = [
  importCommand,
  statsCommand,
  queryCommand,
  rateCommand,
  historyCommand,
  revertCommand,
  policyCommand,
  synthCommand,
  serveCommand,
  pullCommand,
  workerCommand,
]
