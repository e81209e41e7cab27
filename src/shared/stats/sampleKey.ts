/**
 * A seeded pseudo-random key in [0, 1) for a row id. A sample of n is the n rows with the smallest
 * keys, so the same seed gives the same sample whatever order the rows are read in, and a larger
 * sample of the same seed extends a smaller one (drawing more never repeats a row or changes the
 * earlier ones). Two rounds of MurmurHash3's 32-bit finaliser give 53 bits in 32-bit integer
 * arithmetic, which stays cheap when a draw keys every annotation of a large project.
 */
function fmix32(x: number): number {
  let h = x
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/** Seeds are unsigned 32-bit integers. */
export const MAX_SEED = 0xffffffff

export function sampleKey(seed: number, id: number): number {
  const lo = id >>> 0
  const hi = Math.floor(id / 2 ** 32) >>> 0
  const s = fmix32(seed ^ 0x9e3779b9)
  const a = fmix32(lo ^ s ^ Math.imul(hi, 0x27d4eb2f))
  const b = fmix32((a ^ Math.imul(lo, 0x165667b1) ^ fmix32(s + 0x632be5ab)) >>> 0)
  return (a * 2 ** 21 + (b >>> 11)) / 2 ** 53
}

/**
 * The `n` ids with the smallest keys among `ids` (read once, any order), smallest key first;
 * ties (vanishingly rare) go to the smaller id. Memory stays O(n).
 */
export function smallestKeys(ids: Iterable<number>, seed: number, n: number): number[] {
  if (n <= 0) return []
  // A max-heap of the n best so far: the root is the worst kept.
  const heap: Array<{ key: number; id: number }> = []
  const worse = (x: { key: number; id: number }, y: { key: number; id: number }) =>
    x.key > y.key || (x.key === y.key && x.id > y.id)
  const swap = (i: number, j: number) => {
    const t = heap[i] as { key: number; id: number }
    heap[i] = heap[j] as { key: number; id: number }
    heap[j] = t
  }
  for (const id of ids) {
    const item = { key: sampleKey(seed, id), id }
    if (heap.length < n) {
      heap.push(item)
      let i = heap.length - 1
      while (i > 0) {
        const parent = (i - 1) >> 1
        if (!worse(item, heap[parent] as typeof item)) break
        swap(i, parent)
        i = parent
      }
    } else if (worse(heap[0] as typeof item, item)) {
      heap[0] = item
      let i = 0
      for (;;) {
        const l = 2 * i + 1
        const r = l + 1
        let top = i
        if (l < heap.length && worse(heap[l] as typeof item, heap[top] as typeof item)) top = l
        if (r < heap.length && worse(heap[r] as typeof item, heap[top] as typeof item)) top = r
        if (top === i) break
        swap(i, top)
        i = top
      }
    }
  }
  return heap.sort((x, y) => (worse(x, y) ? 1 : -1)).map((x) => x.id)
}
