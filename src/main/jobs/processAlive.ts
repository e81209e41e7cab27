/**
 * True while a process of this machine with this id runs (EPERM: it exists but belongs to
 * someone else). What a killed run left behind is recognised by its process being gone.
 */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
