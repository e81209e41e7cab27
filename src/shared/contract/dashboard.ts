import { z } from 'zod'
import { call } from './define'

export interface DaySubmissions {
  /** Epoch seconds at 00:00 UTC. */
  day: number
  submissions: number
}

/** Annotations per dimension (1–10), overall and per effective rating. */
export interface DimensionsFilled {
  overall: number[]
  byRating: Array<{ rating: number | null; counts: number[] }>
}

/** Workers (by their rating in force now) and annotations (by effective rating) per rating. */
export interface RatingShares {
  workers: Array<{ rating: number | null; n: number }>
  annotations: Array<{ rating: number | null; n: number }>
}

/** Annotations per week by effective rating. */
export interface TierOverTime {
  /** Epoch seconds of each week's first day (weeks start on the collection's first day). */
  weeks: number[]
  series: Array<{ rating: number | null; counts: number[] }>
}

/** The busiest workers' share of their annotations per dimension, beside the crowd's. */
export interface WorkerDimensionMap {
  /** Busiest first: most annotations, ties in the order the workers were first imported. */
  workers: Array<{ workerId: string; annotations: number; shares: number[] }>
  crowd: number[]
  /** Workers with any annotation: more than `workers` holds when a limit left some out. */
  workerCount: number
}

export const dashboardCalls = {
  'dashboard.submissionsPerDay': call(z.object({})).returns<DaySubmissions[]>(),
  'dashboard.dimensions': call(z.object({})).returns<DimensionsFilled>(),
  'dashboard.ratings': call(z.object({})).returns<RatingShares>(),
  'dashboard.tierOverTime': call(z.object({})).returns<TierOverTime>(),
  'dashboard.workerDimensions': call(
    // `null`: every worker.
    z.object({ limit: z.number().int().min(1).nullable().default(30) }),
  ).returns<WorkerDimensionMap>(),
}
