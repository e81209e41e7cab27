import type { CollectionId } from '../../shared/collections'
import type { CallName } from '../../shared/contract'
import type { ParsedReleaseOptions } from '../../shared/contract/release'
import type { Handlers } from '../api/handlers'
import type { Command, CommandOutput, OptionSpec, ParsedValues } from '../cli/command'
import type { CollectionImporter } from './importer'
import type { CollectionSchema } from './schema'
import type { CollectionTeam } from './team'

/**
 * A release a collection writes of its own, asked for by `winnow export --collection <kind>`
 * (GLUCOSE's release folder is the core's default).
 */
export interface ReleaseWriter {
  /** What it writes, as `winnow export`'s usage says. */
  what: string
  /** Its usage line after `winnow export --collection <kind> --db P --out …`. */
  usage: string
  /** Its options beyond the core's (HALIE's `--task`). */
  options: OptionSpec
  /**
   * The core's options it cannot honour, by flag (`filter` for every query filter), each with
   * why: refused before anything is read or written.
   */
  refuses: Readonly<Record<string, string>>
  /** Writes the release the command line asks for; `release` holds the core's options parsed. */
  fromCommandLine(
    dbPath: string,
    values: ParsedValues,
    release: ParsedReleaseOptions,
  ): CommandOutput | Promise<CommandOutput>
}

/**
 * Everything a collection adds to Winnow, declared in one place (`collections/<kind>/index.ts`):
 * its schema (migrations, the tables that mean a project holds it), its importer, its API
 * handlers (exactly its calls of the contract), its commands, its release writer and what it
 * shares with a team (its bulk tables, which imports travel, how its entries name rows). Its page is
 * declared beside its pure logic (`shared/<kind>/page.ts`) and its view in the renderer
 * (`features/<kind>/index.ts`).
 */
export interface Collection<K extends CallName = CallName> {
  id: CollectionId
  schema: CollectionSchema
  importer: Omit<CollectionImporter<never, unknown>, 'id'> & { id: CollectionId }
  handlers: Handlers<K>
  commands: readonly Command[]
  release?: ReleaseWriter
  team: CollectionTeam
}
