/** How an exam's attempts run, as both the exam's panel and its editor show them. */
export interface AttemptSettings {
  /** 0: every enabled question. */
  questionsPerAttempt: number
  passingPercent: number
  attemptsAllowed: number
  timeLimitSeconds: number
}

const FIELDS: {
  key: keyof AttemptSettings
  label: string
  min: number
  max?: number
  testId: string
}[] = [
  {
    key: 'questionsPerAttempt',
    label: 'Questions per attempt (0 = all)',
    min: 0,
    testId: 'cq-per-attempt',
  },
  { key: 'passingPercent', label: 'Passing grade %', min: 0, max: 100, testId: 'cq-passing' },
  { key: 'attemptsAllowed', label: 'Attempts allowed', min: 1, testId: 'cq-attempts' },
  { key: 'timeLimitSeconds', label: 'Time limit (s)', min: 1, testId: 'cq-time-limit' },
]

export function AttemptSettingsFields({
  value,
  onChange,
}: {
  value: AttemptSettings
  onChange: (patch: Partial<AttemptSettings>) => void
}) {
  return (
    <>
      {FIELDS.map((f) => (
        <label key={f.key}>
          {f.label}
          <input
            type="number"
            min={f.min}
            max={f.max}
            data-testid={f.testId}
            value={value[f.key]}
            onChange={(e) =>
              onChange({ [f.key]: e.target.value.trim() === '' ? 0 : Number(e.target.value) })
            }
          />
        </label>
      ))}
    </>
  )
}
