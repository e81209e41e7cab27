/**
 * A project's MTurk settings: which endpoint it talks to (sandbox by default, so nothing costs
 * money until the user says so) and a stable project id that bonus tokens derive from. Neither is
 * secret; the key pair lives in a SecretStore, never in the project file.
 */
import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import type { MTurkEndpointKind, MTurkSettings } from '../../shared/contract/mturk'
import { changeSetting } from '../changes/settings'
import type { Db } from '../db/connection'
import { readSetting } from '../db/queries/settings'
import { teamState } from '../db/queries/team/state'
import { localAuthor } from '../ratings/author'
import { endpointUrl } from './client'
import type { SecretStore } from './credentials'

const ENDPOINT_KEY = 'mturk.endpoint'
const PROJECT_ID_KEY = 'mturk.projectId'

export interface EndpointSetting {
  endpoint: MTurkEndpointKind
  customUrl: string | null
}

const stored = z.object({
  endpoint: z.enum(['sandbox', 'production', 'custom']),
  customUrl: z.string().nullable(),
})

export function readEndpoint(db: Db): EndpointSetting {
  const parsed = stored.safeParse(readSetting(db, ENDPOINT_KEY))
  return parsed.success ? parsed.data : { endpoint: 'sandbox', customUrl: null }
}

/**
 * Saves the choice as a change set; a custom URL is checked (https, or http on this machine)
 * before it is kept.
 */
export function writeEndpoint(
  db: Db,
  setting: { endpoint: MTurkEndpointKind; customUrl?: string | undefined },
  author: string,
): void {
  const customUrl = setting.customUrl?.trim() || null
  if (setting.endpoint === 'custom') endpointUrl(customUrl ?? '')
  changeSetting(db, {
    key: ENDPOINT_KEY,
    value: { endpoint: setting.endpoint, customUrl },
    author,
    description: `MTurk endpoint: ${customUrl ?? setting.endpoint}`,
  })
}

/** The URL requests go to. */
export function resolveEndpoint(setting: EndpointSetting): string {
  return endpointUrl(setting.endpoint === 'custom' ? (setting.customUrl ?? '') : setting.endpoint)
}

/**
 * A random id made once per project: the same bonus in two projects gets different tokens. A team
 * replica that holds none (its lead published before using MTurk) takes one from the team's
 * database, the same on every replica, and records nothing: a reviewer's setting would be refused.
 */
export function projectId(db: Db): string {
  const id = readSetting(db, PROJECT_ID_KEY)
  if (typeof id === 'string' && id !== '') return id
  const team = teamState(db)
  if (team) return `team:${decodeURIComponent(new URL(team.server).pathname.slice(1))}`
  const fresh = randomUUID()
  changeSetting(db, {
    key: PROJECT_ID_KEY,
    value: fresh,
    author: localAuthor(),
    description: 'MTurk project id made (bonus tokens derive from it)',
  })
  return fresh
}

export function settingsView(db: Db, secrets: SecretStore): MTurkSettings {
  const setting = readEndpoint(db)
  let url: string
  try {
    url = resolveEndpoint(setting)
  } catch {
    url = ''
  }
  return { ...setting, url, credentials: secrets.describe() }
}
