import { onProjectSwitch } from '../../lib/projectScope'
import { createStore } from '../../lib/store'

/** Whether the import dialog is open, and files dropped on the window that it should take. */
export interface ImportRequest {
  open: boolean
  dropped: readonly File[]
  /** Bumped on every request so a dialog already open takes newly dropped files too. */
  seq: number
}

export const importRequest = createStore<ImportRequest>({ open: false, dropped: [], seq: 0 })

export function openImport(dropped: readonly File[] = []): void {
  importRequest.set((r) => ({ open: true, dropped, seq: r.seq + 1 }))
}

export function closeImport(): void {
  importRequest.set((r) => ({ ...r, open: false, dropped: [] }))
}

// The dialog imports into the open project: another project closes it.
onProjectSwitch(closeImport)
