import { existsSync } from 'node:fs'
import { openProject } from './db/connection'
import { writeSynthetic } from './importers/synthetic'

/** The demo: a few thousand generated GLUCOSE-like submissions, the same on every machine. */
const DEMO = { submissions: 3000, seed: 20191105 }

export function ensureDemoProject(path: string): void {
  if (existsSync(path)) return
  const db = openProject(path, { create: true })
  try {
    writeSynthetic(db, { ...DEMO, description: 'Demo data' })
  } finally {
    db.close()
  }
}
