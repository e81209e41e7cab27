/**
 * Exam grading as CROWDAQ defines it: grade = correct ÷ questions shown in that attempt (an
 * unanswered question is wrong); attempts numbered per worker by completion time from 1; attempts
 * beyond the limit, attempts after a pass and attempts that took longer than the time limit
 * flagged. Bands map a grade to an MTurk qualification.
 */

export interface ExamSettings {
  /** Questions per attempt; 0 = all enabled questions. */
  questionsPerAttempt: number
  /** Fraction, 0–1. */
  passingGrade: number
  attemptsAllowed: number
  timeLimitSeconds: number
  /** The MTurk qualification type CROWDAQ grants on every submission; null when none. */
  qualificationTypeId: string | null
  bands: Band[]
}

/** Grades from `minGrade` up map to this band's qualification (bands are tried highest first). */
export interface Band {
  name: string
  /** Fraction, 0–1. */
  minGrade: number
  /** Null: the band grants nothing (still named in the report). */
  qualificationTypeId: string | null
  /** Null: `round(grade × 100)`. */
  value: number | null
}

export const DEFAULT_SETTINGS: Omit<ExamSettings, 'bands'> = {
  questionsPerAttempt: 0,
  passingGrade: 1,
  attemptsAllowed: 1,
  timeLimitSeconds: 3600,
  qualificationTypeId: null,
}

/** 100% → main-task qualification; ≥ 70% → warm-up; below → none. */
export function defaultBands(mainQualification: string | null): Band[] {
  return [
    { name: 'main task', minGrade: 1, qualificationTypeId: mainQualification, value: null },
    { name: 'warm-up', minGrade: 0.7, qualificationTypeId: null, value: null },
  ]
}

/**
 * `over-limit`: beyond the attempts allowed; `after-pass`: the worker had passed already;
 * `over-time`: took longer than the time limit.
 */
export type AttemptFlag = 'over-limit' | 'after-pass' | 'over-time'

export interface AttemptInput {
  id: number
  workerId: string
  /** Epoch seconds; null when unknown (then `order` decides). */
  completedAt: number | null
  /** The attempt number the source gave (CSV), used when completion times are missing or tied. */
  order: number
  /** Epoch seconds; null when the source does not say when the attempt began. */
  startedAt: number | null
  /** Epoch seconds: the deadline CROWDAQ set when the attempt began; null when unknown. */
  deadline: number | null
  /** Question ids shown in this attempt. */
  shown: readonly string[]
  /** Chosen option per question id; a missing or null answer is wrong. */
  answers: Readonly<Record<string, string | null>>
}

export interface GradedAttempt {
  id: number
  workerId: string
  attempt: number
  completedAt: number | null
  shown: number
  correct: number
  grade: number
  /** Seconds from start to completion; null when either is unknown. */
  durationSeconds: number | null
  passed: boolean
  band: string | null
  flags: AttemptFlag[]
}

/** The band a grade falls in (highest `minGrade` first); null below every band. */
export function bandFor(bands: readonly Band[], grade: number): Band | null {
  const sorted = [...bands].sort((a, b) => b.minGrade - a.minGrade)
  // Grades are ratios of small integers: compare with a little slack (2/3 ≥ 0.6667 is false).
  return sorted.find((b) => grade + 1e-9 >= b.minGrade) ?? null
}

/**
 * An attempt against the exam's time limit, the one rule for grading and the report: how long it
 * took, where it has a start and an end; whether it took longer than the limit, by that duration
 * or else by the deadline CROWDAQ set when it began; `overTime` null (untimed) without either.
 */
export function attemptTiming(
  a: Pick<AttemptInput, 'startedAt' | 'completedAt' | 'deadline'>,
  timeLimitSeconds: number,
): { durationSeconds: number | null; overTime: boolean | null } {
  if (a.completedAt === null) return { durationSeconds: null, overTime: null }
  if (a.startedAt !== null) {
    const durationSeconds = a.completedAt - a.startedAt
    return { durationSeconds, overTime: durationSeconds > timeLimitSeconds }
  }
  return {
    durationSeconds: null,
    overTime: a.deadline === null ? null : a.completedAt > a.deadline,
  }
}

export function gradeAttempts(
  settings: Pick<ExamSettings, 'passingGrade' | 'attemptsAllowed' | 'timeLimitSeconds' | 'bands'>,
  answerKey: ReadonlyMap<string, string>,
  attempts: readonly AttemptInput[],
): GradedAttempt[] {
  const byWorker = new Map<string, AttemptInput[]>()
  for (const a of attempts) {
    const list = byWorker.get(a.workerId)
    if (list) list.push(a)
    else byWorker.set(a.workerId, [a])
  }
  const out: GradedAttempt[] = []
  for (const [workerId, list] of byWorker) {
    list.sort(
      (a, b) =>
        (a.completedAt ?? Infinity) - (b.completedAt ?? Infinity) ||
        a.order - b.order ||
        a.id - b.id,
    )
    let passedBefore = false
    list.forEach((a, i) => {
      let correct = 0
      for (const q of a.shown) {
        const chosen = a.answers[q]
        if (chosen !== undefined && chosen !== null && chosen === answerKey.get(q)) correct++
      }
      const shown = a.shown.length
      const grade = shown === 0 ? 0 : correct / shown
      const passed = grade + 1e-9 >= settings.passingGrade
      const timing = attemptTiming(a, settings.timeLimitSeconds)
      const flags: AttemptFlag[] = []
      if (i + 1 > settings.attemptsAllowed) flags.push('over-limit')
      if (passedBefore) flags.push('after-pass')
      if (timing.overTime === true) flags.push('over-time')
      if (passed && flags.length === 0) passedBefore = true
      out.push({
        id: a.id,
        workerId,
        attempt: i + 1,
        completedAt: a.completedAt,
        shown,
        correct,
        grade,
        durationSeconds: timing.durationSeconds,
        passed,
        band: bandFor(settings.bands, grade)?.name ?? null,
        flags,
      })
    })
  }
  return out.sort((a, b) => a.workerId.localeCompare(b.workerId) || a.attempt - b.attempt)
}

/**
 * The attempt that stands for each worker: the last one not flagged (a pass, or the last attempt
 * within the limit). Workers whose every attempt is flagged have none.
 */
export function standingAttempts(graded: readonly GradedAttempt[]): Map<string, GradedAttempt> {
  const out = new Map<string, GradedAttempt>()
  for (const a of graded) {
    if (a.flags.length > 0) continue
    const prev = out.get(a.workerId)
    if (!prev || a.attempt > prev.attempt) out.set(a.workerId, a)
  }
  return out
}

/** MTurk's IntegerValue for a grade: `round(grade × 100)`. */
export const gradeValue = (grade: number): number => Math.round(grade * 100)
