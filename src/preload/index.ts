import { contextBridge, ipcRenderer, webUtils } from 'electron'
import type { Bridge, CallName, EventName } from '../shared/contract'
import type { Outcome } from '../shared/contract/errors'
import type { PickedFile } from '../shared/contract/imports'
import { callNameList, eventNameList } from './names'

// The page gets exactly one object: calls and events named in the contract, nothing else.
const calls = new Set<string>(callNameList)
const events = new Set<string>(eventNameList)

const bridge: Bridge = {
  invoke(name: CallName, args: unknown): Promise<Outcome<unknown>> {
    if (!calls.has(name)) {
      return Promise.resolve({
        ok: false,
        error: {
          type: 'invalid-argument',
          code: 'unknown-call',
          message: `Unknown call ${String(name)}`,
        },
      })
    }
    return ipcRenderer.invoke(`winnow:call:${name}`, args) as Promise<Outcome<unknown>>
  },
  on(name: EventName, listener: (payload: unknown) => void): () => void {
    if (!events.has(name)) return () => undefined
    const handler = (
      _event: Electron.IpcRendererEvent,
      eventName: string,
      payload: unknown,
    ): void => {
      if (eventName === name) listener(payload)
    }
    ipcRenderer.on('winnow:event', handler)
    return () => ipcRenderer.removeListener('winnow:event', handler)
  },
  async grantDroppedFile(file: Blob): Promise<PickedFile | null> {
    // Only a real dropped File has a path; main grants exactly that path for import.
    if (!(file instanceof File)) return null
    const path = webUtils.getPathForFile(file)
    if (!path) return null
    return (await ipcRenderer.invoke('winnow:grant-dropped', path)) as PickedFile | null
  },
}

contextBridge.exposeInMainWorld('winnow', bridge)
