/**
 * Injected failures (FORMATS §3.2): throttling, 503, 500 ServiceFault, slow answers, dropped
 * connections and "lost success" (applied, then dropped). A seeded generator makes a test's
 * sequence of faults the same on every run.
 */

export interface FaultPlan {
  /** Seed of the fault sequence; the same seed and request order give the same faults. */
  seed?: number
  /** Probability of a 400 ThrottlingException. */
  throttle?: number
  /** Probability of a bare 503. */
  unavailable?: number
  /** Probability of a 500 ServiceFault. */
  serviceFault?: number
  /** Probability that the socket is destroyed before anything is done. */
  drop?: number
  /** Probability that the operation is applied and then the socket destroyed. */
  lostSuccess?: number
  /** Probability of a slow answer, and its delay. */
  slow?: number
  delayMs?: number
  /** Only these operations get faults (all when absent). */
  operations?: string[]
}

export type Fault = 'throttle' | 'unavailable' | 'serviceFault' | 'drop' | 'lostSuccess'
const FAULTS: readonly Fault[] = ['throttle', 'unavailable', 'serviceFault', 'drop', 'lostSuccess']

/** Spreads a total fault rate over every kind, plus slow answers at the same rate. */
export function faultMix(rate: number, seed = 1, delayMs = 5): FaultPlan {
  return {
    seed,
    throttle: rate * 0.3,
    unavailable: rate * 0.2,
    serviceFault: rate * 0.2,
    drop: rate * 0.15,
    lostSuccess: rate * 0.15,
    slow: rate,
    delayMs,
  }
}

/** mulberry32: a tiny seeded generator in [0, 1), good enough for dice and demo data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export class FaultDice {
  private random: () => number

  constructor(private plan: FaultPlan = {}) {
    this.random = seededRandom(plan.seed ?? 1)
  }

  set(plan: FaultPlan): void {
    this.plan = plan
    this.random = seededRandom(plan.seed ?? 1)
  }

  /** Decides the fate of one request: at most one fault, and an optional delay. */
  roll(operation: string): { fault?: Fault; delayMs: number } {
    const p = this.plan
    if (p.operations && !p.operations.includes(operation)) return { delayMs: 0 }
    const slow = (p.slow ?? 0) > 0 && this.random() < (p.slow ?? 0)
    const delayMs = slow ? (p.delayMs ?? 0) : 0
    let r = this.random()
    for (const fault of FAULTS) {
      const chance = p[fault] ?? 0
      if (r < chance) return { fault, delayMs }
      r -= chance
    }
    return { delayMs }
  }
}
