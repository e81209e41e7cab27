/** App-wide commands that come from the native menu or global keys and are carried out deep inside. */
export type AppCommand = 'undo' | 'redo' | 'help'

type Listener = (command: AppCommand) => void
const listeners = new Set<Listener>()

export function emitCommand(command: AppCommand): void {
  listeners.forEach((listener) => listener(command))
}

export function onCommand(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
