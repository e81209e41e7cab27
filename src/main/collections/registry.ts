import { crowdaq } from './crowdaq'
import { halie } from './halie'
import { protoqa } from './protoqa'

/**
 * The collections beside GLUCOSE, in the order of their pages: the core asks this list for their
 * API handlers and commands instead of naming them. A new collection is a folder
 * (`collections/<kind>/`) and one line here, and one in each of the two lists the layers below
 * ask: `schemas.ts` (the database) and `importers.ts` (the import thread).
 */
export const collections = [protoqa, crowdaq, halie] as const

type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void
  ? I
  : never

/** Every collection's handlers: exactly their calls of the contract. */
export const collectionHandlers = Object.assign(
  {},
  ...collections.map((c) => c.handlers),
) as Intersection<(typeof collections)[number]['handlers']>

/** Every collection's commands, in the registry's order. */
export const collectionCommands = collections.flatMap((c) => c.commands)
