/**
 * BLANC, the agreement of two clusterings of the same answers (FORMATS.md §6.3), with its
 * coreference (C) and non-coreference (N) parts.
 *
 * Items are response instances: an answer given by 7 respondents is 7 items in one cluster, as
 * the experts clustered 100 responses. An answer one side marked invalid is, by default, left out
 * of that side (`invalid: 'excluded'`): its links only grow the other side's denominators.
 * With `invalid: 'singleton'` it is a cluster of its own on that side.
 * Boundaries follow the CoNLL reference scorer, decided on the key: no pairs at all → 0; no
 * coreference pairs in the key → the N part alone; no non-coreference pairs → the C part alone.
 */
export interface BlancParts {
  recall: number
  precision: number
  f: number
}

export interface Blanc {
  blanc: number
  recall: number
  precision: number
  c: BlancParts
  n: BlancParts
  /** Which parts the figure averages (see the boundaries above). */
  uses: 'both' | 'c' | 'n' | 'none'
}

/** An answer's cluster label on one side; null = marked invalid; absent = not clustered. */
export type Labels = ReadonlyMap<string, string | null>

export interface BlancOptions {
  invalid?: 'excluded' | 'singleton'
}

const pairs = (n: number): number => (n * (n - 1)) / 2
const ratio = (a: number, b: number): number => (b === 0 ? 0 : a / b)
const f1 = (p: number, r: number): number => (p + r === 0 ? 0 : (2 * p * r) / (p + r))

function sideLabels(labels: Labels, mode: 'excluded' | 'singleton'): Map<string, string> {
  const out = new Map<string, string>()
  for (const [item, label] of labels) {
    if (label !== null) out.set(item, `c:${label}`)
    else if (mode === 'singleton') out.set(item, `i:${item}`)
  }
  return out
}

function sumPairs(sizes: Iterable<number>): number {
  let total = 0
  for (const s of sizes) total += pairs(s)
  return total
}

function clusterSizes(labels: Map<string, string>, weight: (item: string) => number): number[] {
  const sizes = new Map<string, number>()
  for (const [item, label] of labels) sizes.set(label, (sizes.get(label) ?? 0) + weight(item))
  return [...sizes.values()]
}

/**
 * BLANC of `response` against `key`. `weight` gives each answer's respondents (1 when absent:
 * items are then distinct strings).
 */
export function blanc(
  key: Labels,
  response: Labels,
  weights: ReadonlyMap<string, number> = new Map(),
  options: BlancOptions = {},
): Blanc {
  const mode = options.invalid ?? 'excluded'
  const weight = (item: string): number => weights.get(item) ?? 1
  const k = sideLabels(key, mode)
  const r = sideLabels(response, mode)
  const total = (labels: Map<string, string>): number => {
    let n = 0
    for (const item of labels.keys()) n += weight(item)
    return n
  }
  const ck = sumPairs(clusterSizes(k, weight))
  const nk = pairs(total(k)) - ck
  const cr = sumPairs(clusterSizes(r, weight))
  const nr = pairs(total(r)) - cr
  // Links between items both sides hold.
  const cells = new Map<string, number>()
  const keyCommon = new Map<string, number>()
  const respCommon = new Map<string, number>()
  let common = 0
  for (const [item, kl] of k) {
    const rl = r.get(item)
    if (rl === undefined) continue
    const w = weight(item)
    common += w
    const cell = `${kl}\u0000${rl}`
    cells.set(cell, (cells.get(cell) ?? 0) + w)
    keyCommon.set(kl, (keyCommon.get(kl) ?? 0) + w)
    respCommon.set(rl, (respCommon.get(rl) ?? 0) + w)
  }
  const bothC = sumPairs(cells.values())
  const bothN = pairs(common) - sumPairs(keyCommon.values()) - sumPairs(respCommon.values()) + bothC
  const c = { recall: ratio(bothC, ck), precision: ratio(bothC, cr), f: 0 }
  c.f = f1(c.precision, c.recall)
  const n = { recall: ratio(bothN, nk), precision: ratio(bothN, nr), f: 0 }
  n.f = f1(n.precision, n.recall)
  if (ck === 0 && nk === 0) return { blanc: 0, recall: 0, precision: 0, c, n, uses: 'none' }
  if (ck === 0) return { blanc: n.f, recall: n.recall, precision: n.precision, c, n, uses: 'n' }
  if (nk === 0) return { blanc: c.f, recall: c.recall, precision: c.precision, c, n, uses: 'c' }
  return {
    blanc: (c.f + n.f) / 2,
    recall: (c.recall + n.recall) / 2,
    precision: (c.precision + n.precision) / 2,
    c,
    n,
    uses: 'both',
  }
}

/** The answers two clusterings put apart: pairs one side links and the other does not. */
export interface Disagreement {
  answer: string
  keyCluster: string | null
  responseCluster: string | null
  /** Answers the key puts with this one that the response does not, and the reverse. */
  onlyKey: string[]
  onlyResponse: string[]
}

export function disagreements(key: Labels, response: Labels): Disagreement[] {
  const items = [...new Set([...key.keys(), ...response.keys()])].sort()
  const groups = (labels: Labels): Map<string, string[]> => {
    const g = new Map<string, string[]>()
    for (const [item, label] of labels) {
      if (label === null) continue
      const list = g.get(label) ?? []
      list.push(item)
      g.set(label, list)
    }
    return g
  }
  const gk = groups(key)
  const gr = groups(response)
  const out: Disagreement[] = []
  for (const item of items) {
    const kl = key.get(item) ?? null
    const rl = response.get(item) ?? null
    const withK = new Set(kl === null ? [] : (gk.get(kl) ?? []))
    const withR = new Set(rl === null ? [] : (gr.get(rl) ?? []))
    const onlyKey = [...withK].filter((x) => x !== item && !withR.has(x)).sort()
    const onlyResponse = [...withR].filter((x) => x !== item && !withK.has(x)).sort()
    const validityDiffers = (kl === null) !== (rl === null)
    if (onlyKey.length || onlyResponse.length || validityDiffers)
      out.push({ answer: item, keyCluster: kl, responseCluster: rl, onlyKey, onlyResponse })
  }
  return out
}
