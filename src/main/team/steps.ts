/**
 * Where a team exchange stands, told to whoever listens (the team-live benchmark times each step
 * with it); nothing listens in the app. `project` is the project file's path.
 */
export type TeamStep =
  'exchange' | 'push-start' | 'pushed' | 'heard' | 'pull-start' | 'read' | 'applied'

type StepListener = (project: string, step: TeamStep) => void

let listener: StepListener | null = null

export function listenToTeamSteps(next: StepListener | null): void {
  listener = next
}

export function teamStep(project: string, step: TeamStep): void {
  listener?.(project, step)
}
