/** Writes text to the clipboard; falls back to a hidden textarea where the async API is refused. */
export async function writeClipboard(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text)
    return
  } catch {
    // fall through: no permission (e.g. an unfocused headless page)
  }
  const area = document.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.opacity = '0'
  document.body.appendChild(area)
  const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
  area.select()
  try {
    document.execCommand('copy')
  } finally {
    area.remove()
    previous?.focus()
  }
}
