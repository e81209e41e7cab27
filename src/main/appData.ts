import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * The folder where Winnow keeps its own files (recent projects), never inside a project: the
 * desktop app's (Electron's userData for "winnow"), so serve mode lists the same recent projects.
 * `WINNOW_DATA_DIR` names another, for both.
 */
export function appDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WINNOW_DATA_DIR) return env.WINNOW_DATA_DIR
  const home = homedir()
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'winnow')
  if (process.platform === 'darwin') return join(home, 'Library', 'Application Support', 'winnow')
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'winnow')
}
