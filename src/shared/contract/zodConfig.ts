import { z } from 'zod'

// zod probes for `new Function` (to compile fast object parsers) the first time it parses; under
// the page's CSP that probe is a violation report on every load. Parse without it, everywhere.
z.config({ jitless: true })
