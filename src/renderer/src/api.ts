import {
  ApiError,
  type Bridge,
  type EventName,
  type EventPayload,
  type WinnowApi,
  callNames,
} from '../../shared/contract'
import type { PickedFile } from '../../shared/contract/imports'
import { httpBridge } from './transport/http'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in serve mode. */
    winnow?: Bridge
  }
}

function tokenFromLocation(): string {
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token')
  if (fromHash) {
    sessionStorage.setItem('winnow-token', fromHash)
    history.replaceState(null, '', window.location.pathname + window.location.search)
    return fromHash
  }
  return sessionStorage.getItem('winnow-token') ?? ''
}

const http = window.winnow ? null : httpBridge(tokenFromLocation())
const bridge: Bridge = window.winnow ?? (http as Bridge)

/** True in the desktop app (native dialogs, dropped files by path); false in serve mode. */
export const isDesktop = Boolean(window.winnow)

function buildApi(): WinnowApi {
  const api: Record<string, Record<string, (args: unknown) => Promise<unknown>>> = {}
  for (const name of callNames) {
    const [domain = '', method = ''] = name.split('.')
    api[domain] ??= {}
    api[domain][method] = async (args: unknown) => {
      const outcome = await bridge.invoke(name, args ?? {})
      if (!outcome.ok) throw new ApiError(outcome.error)
      return outcome.value
    }
  }
  return api as unknown as WinnowApi
}

/** The page's API, the same in the desktop app and in serve mode. */
export const api = buildApi()

export function onEvent<E extends EventName>(
  name: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  return bridge.on(name, listener as (payload: unknown) => void)
}

/** A file the user dropped or chose in the page: by path in the desktop app, uploaded in serve mode. */
export async function fileFromPage(file: File): Promise<PickedFile | null> {
  if (bridge.grantDroppedFile) return bridge.grantDroppedFile(file)
  if (http) return http.upload(file)
  return null
}
