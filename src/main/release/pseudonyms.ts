import { type AnnotationFilter, describeFilter, isEmptyFilter } from '../../shared/filter'
import type { ReleaseFacts } from './facts'

/** How an id is recognised in free text (see docs/decisions.md, "Pseudonymous releases"). */
type Rule = 'anywhere' | 'word' | 'after worker'

const ALNUM = /[A-Za-z0-9]/
const WORKER_BEFORE = /\bworkers?[\s:#]*$/i
/** An id this long with a letter in it is never anything else, even run into other text. */
const DISTINCT_LENGTH = 8

/** ASCII lower case, so positions in the text and its lower-cased copy stay the same. */
function lowerAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

/**
 * Real worker ids in the texts of a pseudonymised release, replaced by the worker's pseudonym:
 * change-set descriptions and notes, policy and audit names, filters, file names, the card.
 */
export class WorkerPseudonyms {
  private readonly byId = new Map<string, { pseudonym: string; rule: Rule }>()
  /** The lengths of the ids, longest first (the longest id found at a place wins). */
  private readonly lengths: number[]

  constructor(
    externalIds: ReadonlyMap<number, string>,
    private readonly pseudonyms: ReadonlyMap<number, number>,
  ) {
    for (const [id, external] of externalIds) {
      const pseudonym = pseudonyms.get(id)
      if (pseudonym === undefined || external === '') continue
      const letter = /[A-Za-z]/.test(external)
      const rule: Rule = !letter
        ? 'after worker'
        : external.length >= DISTINCT_LENGTH
          ? 'anywhere'
          : 'word'
      this.byId.set(lowerAscii(external), { pseudonym: String(pseudonym), rule })
    }
    this.lengths = [...new Set([...this.byId.keys()].map((k) => k.length))].sort((a, b) => b - a)
  }

  /** The pseudonym of a worker of the project (by row id), as the data files print it. */
  ofWorker(workerId: number): string {
    return String(this.pseudonyms.get(workerId) ?? '')
  }

  /** The pseudonym of a worker id as the files write it; null for an id not in the project. */
  of(external: string): string | null {
    return this.byId.get(lowerAscii(external))?.pseudonym ?? null
  }

  private fits(rule: Rule, text: string, at: number, length: number): boolean {
    if (rule === 'anywhere') return true
    const before = at > 0 ? text.charAt(at - 1) : ''
    const after = text.charAt(at + length)
    if (ALNUM.test(before) || ALNUM.test(after)) return false
    return rule === 'word' || WORKER_BEFORE.test(text.slice(Math.max(0, at - 16), at))
  }

  /** The text with every real worker id in it replaced by the worker's pseudonym. */
  text(text: string): string {
    if (this.byId.size === 0) return text
    const lower = lowerAscii(text)
    let out = ''
    let copied = 0
    let at = 0
    while (at < text.length) {
      let length = 0
      let pseudonym = ''
      for (const n of this.lengths) {
        if (at + n > text.length) continue
        const found = this.byId.get(lower.slice(at, at + n))
        if (found && this.fits(found.rule, text, at, n)) {
          length = n
          pseudonym = found.pseudonym
          break
        }
      }
      if (length === 0) {
        at++
        continue
      }
      out += text.slice(copied, at) + pseudonym
      at += length
      copied = at
    }
    return out + text.slice(copied)
  }

  /** A filter naming workers by their pseudonyms (an id not in the project by no id at all). */
  filter(filter: AnnotationFilter): AnnotationFilter {
    const out: AnnotationFilter = { ...filter }
    if (filter.workers)
      out.workers = filter.workers.map((w) => this.of(w) ?? 'a worker not in the project')
    if (filter.sentence !== undefined) out.sentence = this.text(filter.sentence)
    if (filter.text !== undefined) out.text = this.text(filter.text)
    return out
  }
}

/**
 * The facts a pseudonymised release states, with no real worker id left in any of them: the
 * scope's filter by pseudonyms, and every text a person or a filter wrote with its ids replaced.
 */
export function pseudonymousFacts(facts: ReleaseFacts, workers: WorkerPseudonyms): ReleaseFacts {
  const text = (t: string): string => workers.text(t)
  const o = facts.options
  const filter = o.filter ? workers.filter(o.filter) : undefined
  return {
    ...facts,
    projectName: text(facts.projectName),
    card: {
      name: text(facts.card.name),
      description: text(facts.card.description),
      license: text(facts.card.license),
      url: text(facts.card.url),
      creator: text(facts.card.creator),
    },
    options: {
      ...o,
      ...(filter ? { filter } : {}),
      ...(o.split ? { split: { ...o.split, seed: text(o.split.seed) } } : {}),
    },
    changeSets: facts.changeSets.map((c) => ({
      ...c,
      author: text(c.author),
      description: text(c.description),
      policyName: c.policyName === null ? null : text(c.policyName),
    })),
    audits: facts.audits.map((a) => ({ ...a, description: text(a.description) })),
    inputs: facts.inputs.map((f) => ({ ...f, name: text(f.name) })),
    scope: filter && !isEmptyFilter(filter) ? describeFilter(filter) : text(facts.scope),
  }
}
