import { afterEach } from 'vitest'

/** Puts these variables of the environment back after each test, as the file found them. */
export function restoreEnvAfterEach(...keys: string[]): void {
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]]))
  afterEach(() => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  })
}
