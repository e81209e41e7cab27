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
interface BlancParts {
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

/** Each side's cluster of each item as a small integer (-1: not on that side). */
function clusterIds(
  labels: Labels,
  mode: 'excluded' | 'singleton',
  items: readonly string[],
): Int32Array {
  const ids = new Map<string, number>()
  const out = new Int32Array(items.length).fill(-1)
  items.forEach((item, i) => {
    const label = labels.get(item)
    if (label === undefined || (label === null && mode === 'excluded')) return
    if (label === null) {
      out[i] = ids.size
      ids.set(`\u0000${item}`, ids.size)
      return
    }
    let id = ids.get(label)
    if (id === undefined) {
      id = ids.size
      ids.set(label, id)
    }
    out[i] = id
  })
  return out
}

function sumPairs(sizes: Iterable<number>): number {
  let total = 0
  for (const s of sizes) total += pairs(s)
  return total
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
  const items = [...new Set([...key.keys(), ...response.keys()])]
  const k = clusterIds(key, mode, items)
  const r = clusterIds(response, mode, items)
  const kSizes = new Map<number, number>()
  const rSizes = new Map<number, number>()
  const kCommon = new Map<number, number>()
  const rCommon = new Map<number, number>()
  const cells = new Map<number, number>()
  const add = (m: Map<number, number>, id: number, w: number): void => {
    m.set(id, (m.get(id) ?? 0) + w)
  }
  let kTotal = 0
  let rTotal = 0
  let common = 0
  items.forEach((item, i) => {
    const w = weights.get(item) ?? 1
    const ki = k[i] ?? -1
    const ri = r[i] ?? -1
    if (ki >= 0) {
      kTotal += w
      add(kSizes, ki, w)
    }
    if (ri >= 0) {
      rTotal += w
      add(rSizes, ri, w)
    }
    if (ki >= 0 && ri >= 0) {
      // Links between items both sides hold.
      common += w
      add(kCommon, ki, w)
      add(rCommon, ri, w)
      add(cells, ki * items.length + ri, w)
    }
  })
  const ck = sumPairs(kSizes.values())
  const nk = pairs(kTotal) - ck
  const cr = sumPairs(rSizes.values())
  const nr = pairs(rTotal) - cr
  const bothC = sumPairs(cells.values())
  const bothN = pairs(common) - sumPairs(kCommon.values()) - sumPairs(rCommon.values()) + bothC
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
