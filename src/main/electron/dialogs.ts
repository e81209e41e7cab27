import { type BrowserWindow, dialog } from 'electron'
import type { Dialogs } from '../api/handlers'

const projectFilter = { name: 'Winnow project', extensions: ['winnow'] }

export function nativeDialogs(window: () => BrowserWindow | null): Dialogs {
  return {
    async openProject() {
      const parent = window()
      const options = { properties: ['openFile' as const], filters: [projectFilter] }
      const result = parent
        ? await dialog.showOpenDialog(parent, options)
        : await dialog.showOpenDialog(options)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },
    async createProject() {
      const parent = window()
      const options = { title: 'New Winnow project', filters: [projectFilter] }
      const result = parent
        ? await dialog.showSaveDialog(parent, options)
        : await dialog.showSaveDialog(options)
      return result.canceled || !result.filePath ? null : result.filePath
    },
    async openDataFiles() {
      const parent = window()
      const options = {
        title: 'Import data files',
        properties: ['openFile' as const, 'multiSelections' as const],
        filters: [
          { name: 'CSV files', extensions: ['csv', 'tsv', 'txt'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }
      const result = parent
        ? await dialog.showOpenDialog(parent, options)
        : await dialog.showOpenDialog(options)
      return result.canceled ? [] : result.filePaths
    },
    async openMappingFile() {
      const parent = window()
      const options = {
        title: 'Choose a field mapping (JSON)',
        properties: ['openFile' as const],
        filters: [
          { name: 'JSON files', extensions: ['json'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }
      const result = parent
        ? await dialog.showOpenDialog(parent, options)
        : await dialog.showOpenDialog(options)
      return result.canceled ? null : (result.filePaths[0] ?? null)
    },
  }
}
