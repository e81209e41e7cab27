import { dimensionInfo } from '../../shared/glucose/dimensions'
import { slotAsNL } from '../../shared/glucose/grammar'
import type { Random } from './random'
import type { Person, Story, StoryEvent } from './stories'
import {
  ATTRIBUTES,
  DRIVES,
  EMOTIONS,
  type EventTemplate,
  GENERIC_AFTER,
  GENERIC_BEFORE,
  LOCATION_PREPOSITIONS,
} from './vocabulary'

/**
 * One worker's answer for one dimension: a plan of terms (each with its specific and general
 * wording) rendered as NL and Structured. NL is built from the slots, so the two agree except
 * where a dirty-cell habit (FORMATS §1.4) makes them differ on purpose.
 */

interface Term {
  tag: string
  specific: string
  general: string
  /** NL text of the general slot when it differs from the slot (lost underscore). */
  generalNL?: string
}

export interface AnswerCells {
  specificNL: string
  specificStructured: string
  generalNL: string
  generalStructured: string
}

/** How often workers' habits show; FORMATS §1.4 shares. */
const TRAILING_SPACE = 0.08
const LOWERCASE_NAME = 0.05
const THING_CLAUSE = 0.4
const PLACE_CLAUSE = 0.5
const PERSON_CLAUSE = 0.25
const LOST_UNDERSCORE = 0.3
const DOUBLE_PARENS = 0.03
const SPACE_BEFORE_PAREN = 0.03

export function answer(story: Story, x: number, dimension: number, r: Random): AnswerCells {
  const info = dimensionInfo(dimension)
  const event = story.events[x] ?? story.events[0]!
  const xTerms = eventTerms(story, event, r)
  const other = otherHalf(story, x, event, dimension, r)
  const [left, right] = info.selectedSide === 'right' ? [other, xTerms] : [xTerms, other]
  const connector = `>${info.connector}>`
  const specific = render(left, right, connector, 'specific', r)
  const general = render(left, right, connector, 'general', r)
  return {
    specificNL: specific.nl,
    specificStructured: specific.structured,
    generalNL: general.nl,
    generalStructured: general.structured,
  }
}

function render(
  left: readonly Term[],
  right: readonly Term[],
  connector: string,
  which: 'specific' | 'general',
  r: Random,
): { nl: string; structured: string } {
  const half = (terms: readonly Term[]): { nl: string; structured: string } => {
    const slots = terms.map((t) => {
      let raw = which === 'specific' ? t.specific : t.general
      let nl = which === 'general' && t.generalNL !== undefined ? t.generalNL : slotAsNL(raw)
      // A typed trailing space survives in the slot and doubles the space in NL.
      if (r.chance(TRAILING_SPACE)) {
        raw += ' '
        nl += ' '
      }
      return { structured: `{${raw}}_[${t.tag}]`, nl }
    })
    return {
      structured: slots.map((s) => s.structured).join(' '),
      nl: slots.map((s) => s.nl).join(' '),
    }
  }
  const l = half(left)
  const rt = half(right)
  return {
    nl: `${l.nl} ${connector} ${rt.nl}`,
    structured: `${l.structured} ${connector} ${rt.structured}`,
  }
}

function personTerm(story: Story, p: Person, tag: string, r: Random): Term {
  const specific = r.chance(LOWERCASE_NAME) ? p.name.toLowerCase() : p.name
  if (p.variable === 'Someone_B' && r.chance(PERSON_CLAUSE)) {
    const clause = `who is ${story.main.variable}'s ${p.relation ?? 'friend'}`
    const t = clauseTerm(tag, specific, p.variable, clause, r)
    // Some exports lost the underscore of a variable inside a clause (Structured only).
    if (r.chance(LOST_UNDERSCORE))
      return { ...t, generalNL: slotAsNL(t.general), general: t.general.replace('_A', ' A') }
    return t
  }
  return { tag, specific, general: p.variable }
}

function clauseTerm(
  tag: string,
  specific: string,
  variable: string,
  clause: string,
  r: Random,
): Term {
  let c = clause
  if (r.chance(DOUBLE_PARENS)) c = `(${c})`
  if (r.chance(SPACE_BEFORE_PAREN)) c = `${c} `
  return { tag, specific, general: `${variable} ||${c}||` }
}

function thingTerm(story: Story, tag: string, r: Random): Term {
  const specific = r.chance(0.7)
    ? `the ${story.thing}`
    : `${possessiveOf(story.main)} ${story.thing}`
  if (r.chance(THING_CLAUSE))
    return clauseTerm(tag, specific, 'Something_A', `that is a ${story.thing}`, r)
  return { tag, specific, general: 'Something_A' }
}

function placeTerm(story: Story, tag: string, r: Random): Term {
  const specific = `the ${story.place}`
  if (r.chance(PLACE_CLAUSE))
    return clauseTerm(tag, specific, 'Somewhere_A', `that is a ${story.place}`, r)
  return { tag, specific, general: 'Somewhere_A' }
}

function possessiveOf(p: Person): string {
  return p.pronoun === 'he' ? 'his' : 'her'
}

/** The free half: subject, verb, then numbered prepositions and objects. */
function eventTerms(
  story: Story,
  e: StoryEvent | { template: EventTemplate; subject: 'main' | 'other' },
  r: Random,
): Term[] {
  const subject = e.subject === 'main' ? story.main : story.other
  const partner = e.subject === 'main' ? story.other : story.main
  const terms: Term[] = [
    personTerm(story, subject, 'subject', r),
    { tag: 'verb', specific: e.template.present, general: e.template.present },
  ]
  let objects = 0
  for (const part of e.template.parts) {
    if (part[0] === 'prep') {
      terms.push({ tag: `preposition${objects + 1}`, specific: part[1], general: part[1] })
      continue
    }
    objects++
    const tag = `object${objects}`
    if (part[0] === 'lit') terms.push({ tag, specific: part[1], general: part[1] })
    else if (part[1] === 'person') terms.push(personTerm(story, partner, tag, r))
    else if (part[1] === 'place') terms.push(placeTerm(story, tag, r))
    else if (part[1] === 'thing') terms.push(thingTerm(story, tag, r))
    else terms.push({ tag, specific: `the ${story.food}`, general: 'Something_B' })
  }
  return terms
}

/** The constrained (or, for dims 1 and 6, free) half that is not the selected sentence. */
function otherHalf(story: Story, x: number, event: StoryEvent, d: number, r: Random): Term[] {
  const actor = event.subject === 'other' || r.chance(0.2) ? story.other : story.main
  const who = personTerm(story, actor, 'subject', r)
  const verb = (s: string): Term => ({ tag: 'verb', specific: s, general: s })
  const literal = (s: string, tag = 'object'): Term => ({ tag, specific: s, general: s })
  switch (d) {
    case 1:
    case 6: {
      const neighbour = story.events[d === 1 ? x - 1 : x + 1]
      const generic = r.pick(d === 1 ? GENERIC_BEFORE : GENERIC_AFTER)
      return eventTerms(
        story,
        neighbour && r.chance(0.8) ? neighbour : { template: generic, subject: 'main' },
        r,
      )
    }
    case 2:
      if (r.chance(0.55))
        return [who, verb(r.chance(0.7) ? 'want(s)' : 'wants'), literal(r.pick(DRIVES))]
      if (r.chance(0.8))
        return [who, verb(r.chance(0.7) ? 'feel(s)' : 'feels'), literal(r.pick(EMOTIONS))]
      return [who, verb('like(s)'), placeTerm(story, 'object', r)]
    case 7:
      return [
        who,
        verb(r.pick(['feel(s)', 'feel(s)', 'feel(s)', 'feels', 'feel'])),
        literal(r.pick(EMOTIONS)),
      ]
    case 3:
    case 8: {
      const subject = d === 8 && r.chance(0.3) ? thingTerm(story, 'subject', r) : who
      return [
        subject,
        verb('is'),
        literal(r.pick(LOCATION_PREPOSITIONS), 'preposition'),
        placeTerm(story, 'object', r),
      ]
    }
    case 4:
    case 9:
      return [who, verb(r.chance(0.8) ? 'possess(es)' : 'possesses'), thingTerm(story, 'object', r)]
    default: {
      const [v, o] = r.pick(ATTRIBUTES)
      return [who, verb(v), literal(o)]
    }
  }
}
