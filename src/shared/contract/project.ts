import { z } from 'zod'
import type { CollectionId, GoCommand } from '../pages'
import { call, event } from './define'

export interface ProjectInfo {
  path: string
  name: string
  isDemo: boolean
  schemaVersion: number
  /**
   * The collections beside GLUCOSE it holds (their pages show), in page order: found when the
   * project opens and again when an import (or a question set written in the app) may add one.
   */
  collections: CollectionId[]
}

export interface RecentProject {
  path: string
  name: string
  openedAt: number
  exists: boolean
}

/** Counts that tell a user what is in a project (also `winnow stats --json`). */
export interface ProjectStats {
  submissions: number
  annotations: number
  workers: number
  stories: number
  byDimension: Record<string, number>
  /** Annotations by rating, keyed by the number written the shortest way ("3", "1.5", "-1"), plus "unrated". */
  byRating: Record<string, number>
}

export interface AppInfo {
  version: string
  /** `electron` shows native dialogs; `serve` runs in a browser and uploads files instead. */
  mode: 'electron' | 'serve'
}

const projectPath = z.string().min(1).max(4096)

export const projectCalls = {
  'app.info': call(z.object({})).returns<AppInfo>(),
  'project.current': call(z.object({})).returns<ProjectInfo | null>(),
  'project.open': call(z.object({ path: projectPath })).returns<ProjectInfo>(),
  'project.create': call(z.object({ path: projectPath })).returns<ProjectInfo>(),
  'project.openDemo': call(z.object({})).returns<ProjectInfo>(),
  'project.recent': call(z.object({})).returns<RecentProject[]>(),
  /** Electron only: native Open / Save dialogs. Null when the user cancels. */
  'project.pickOpen': call(z.object({})).returns<ProjectInfo | null>(),
  'project.pickCreate': call(z.object({})).returns<ProjectInfo | null>(),
  'project.stats': call(z.object({})).returns<ProjectStats>(),
  /** The collections beside GLUCOSE the open project holds: their pages show in the navigation. */
  'project.collections': call(z.object({})).returns<CollectionId[]>(),
}

/** Commands from the desktop app's native menu, carried out by the page. */
export type MenuCommand =
  | 'new'
  | 'open'
  | 'demo'
  | 'import'
  | 'share'
  | 'join'
  | 'undo'
  | 'redo'
  | 'help'
  | 'mturkSettings'
  | GoCommand

export const projectEvents = {
  'app.menu': event<{ command: MenuCommand }>(),
  /** The open project changed (opened, created, or its data changed through a job). */
  'project.changed': event<{ project: ProjectInfo | null; reason: 'opened' | 'data' }>(),
}
