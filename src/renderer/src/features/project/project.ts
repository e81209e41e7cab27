import type { ProjectInfo, ProjectStats, RecentProject } from '../../../../shared/contract/project'
import type { CollectionId } from '../../../../shared/pages'
import { api, isDesktop, onEvent } from '../../api'
import { switchProject } from '../../lib/projectScope'
import { createStore } from '../../lib/store'
import { showError } from '../messages/messages'

export interface ProjectState {
  /** False until main has said which project (if any) is open. */
  loaded: boolean
  project: ProjectInfo | null
  stats: ProjectStats | null
  /** Bumped whenever the project's data changed, so views re-query. */
  dataVersion: number
  /** The collections beside GLUCOSE it holds (their tabs show), as main last said. */
  collections: readonly CollectionId[]
}

export const projectState = createStore<ProjectState>({
  loaded: false,
  project: null,
  stats: null,
  dataVersion: 0,
  collections: [],
})

let latestCount = 0

/** Counts the project again; only the answer to the latest request is kept. */
export function refreshStats(): void {
  const request = ++latestCount
  if (!projectState.get().project) return
  api.project
    .stats({})
    .then((stats) => {
      if (request === latestCount) projectState.set((s) => ({ ...s, stats }))
    })
    .catch((e: unknown) => showError('Counting the project', e))
}

function setProject(project: ProjectInfo | null, dataChanged: boolean): void {
  // Another project: what the pages keep outside React goes back to its start before they mount.
  if (projectState.get().project?.path !== project?.path) switchProject()
  projectState.set((s) => {
    const same = s.project?.path === project?.path
    return {
      loaded: true,
      project,
      stats: same ? s.stats : null,
      dataVersion: dataChanged || !same ? s.dataVersion + 1 : s.dataVersion,
      collections: project?.collections ?? [],
    }
  })
  refreshStats()
}

let started = false

export function startProjectFeed(): void {
  if (started) return
  started = true
  onEvent('project.changed', ({ project, reason }) => setProject(project, reason === 'data'))
  api.project
    .current({})
    .then((project) => setProject(project, false))
    .catch((e: unknown) => {
      projectState.set((s) => ({ ...s, loaded: true }))
      showError('Connecting to Winnow', e)
    })
}

/** Runs a project-opening call; the `project.changed` event also arrives, this makes it immediate. */
async function opening(what: string, run: () => Promise<ProjectInfo | null>): Promise<boolean> {
  try {
    const project = await run()
    if (project) setProject(project, false)
    return project !== null
  } catch (e) {
    showError(what, e)
    return false
  }
}

export const projectActions = {
  pickOpen: () => opening('Opening a project', () => api.project.pickOpen({})),
  pickCreate: () => opening('Creating a project', () => api.project.pickCreate({})),
  open: (path: string) => opening('Opening the project', () => api.project.open({ path })),
  create: (path: string) => opening('Creating the project', () => api.project.create({ path })),
  openDemo: () => opening('Opening the demo project', () => api.project.openDemo({})),
  recent: (): Promise<RecentProject[]> => api.project.recent({}),
}

/** Native dialogs exist only in the desktop app; serve mode asks for a path instead. */
export const hasNativeDialogs = isDesktop
