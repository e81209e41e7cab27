/** Saves a blob as a file through a temporary link (no remote content, no inline script). */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A picture as PNG, `scale` times its size, on white. */
function savePng(
  source: CanvasImageSource & { width: number; height: number },
  name: string,
  scale = 1,
): void {
  const canvas = document.createElement('canvas')
  canvas.width = Math.round(source.width * scale)
  canvas.height = Math.round(source.height * scale)
  const ctx = canvas.getContext('2d')
  if (!ctx) return
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(0, 0, canvas.width, canvas.height)
  ctx.drawImage(source, 0, 0, canvas.width, canvas.height)
  canvas.toBlob((blob) => blob && download(blob, name), 'image/png')
}

/** An SVG document drawn as PNG at its own size, at the screen's pixel density. */
function saveSvgAsPng(svg: string, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const image = new Image()
    image.onload = () => {
      savePng(image, name, window.devicePixelRatio || 1)
      resolve()
    }
    image.onerror = () => reject(new Error('The SVG could not be drawn as PNG.'))
    // A data URL: the page's content policy admits those for images, and the canvas stays clean.
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`
  })
}

function fileName(title: string, extension: string): string {
  return `${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.${extension}`
}

/** A chart's figure saved as `format`: the SVG document itself, or the same picture as PNG. */
export async function saveFigure(svg: string, title: string, format: 'png' | 'svg'): Promise<void> {
  if (format === 'svg') download(new Blob([svg], { type: 'image/svg+xml' }), fileName(title, 'svg'))
  else await saveSvgAsPng(svg, fileName(title, 'png'))
}
