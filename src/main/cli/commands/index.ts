import type { Command } from '../command'
import { historyCommand } from './history'
import { importCommand } from './import'
import { rateCommand } from './rate'
import { revertCommand } from './revert'
import { serveCommand } from './serve'
import { statsCommand } from './stats'
import { synthCommand } from './synth'

/** Every `winnow` command, in the order `winnow --help` lists them. */
export const commands: Command[] = [
  importCommand,
  statsCommand,
  rateCommand,
  historyCommand,
  revertCommand,
  synthCommand,
  serveCommand,
]
