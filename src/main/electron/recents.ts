import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { ProjectInfo, RecentProject } from '../../shared/contract/project'

const stored = z.array(z.object({ path: z.string(), name: z.string(), openedAt: z.number() }))

/** Recently opened projects, kept in the app's own data folder (never in a project). */
export function recentProjects(file: string, limit = 10) {
  const read = (): Omit<RecentProject, 'exists'>[] => {
    try {
      return stored.parse(JSON.parse(readFileSync(file, 'utf8')))
    } catch {
      return []
    }
  }
  return {
    list: (): RecentProject[] => read().map((r) => ({ ...r, exists: existsSync(r.path) })),
    add(project: ProjectInfo): void {
      const next = [
        { path: project.path, name: project.name, openedAt: Date.now() },
        ...read().filter((r) => r.path !== project.path),
      ].slice(0, limit)
      // The list is a convenience: a folder that cannot be written never stops a project opening.
      try {
        mkdirSync(dirname(file), { recursive: true })
        writeFileSync(file, JSON.stringify(next, null, 2))
      } catch (error) {
        console.error(`could not keep the recent projects in ${file}`, error)
      }
    },
  }
}
