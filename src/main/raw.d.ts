/** Text files bundled into the build (`import text from './file?raw'`). */
declare module '*?raw' {
  const text: string
  export default text
}
