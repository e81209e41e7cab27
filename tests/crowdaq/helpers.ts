import { join } from 'node:path'

const FIXTURES = join(__dirname, '..', 'fixtures', 'crowdaq')
export const fixture = (name: string): string => join(FIXTURES, name)
