import type { PolicyParam, PolicyParamValue } from '../../../../shared/contract/policies'

/** Text of a value as the form field shows it (lists comma-separated). */
function paramText(value: PolicyParamValue | undefined): string {
  if (value === undefined || value === null) return ''
  return Array.isArray(value) ? value.join(', ') : String(value)
}

/**
 * The parameters a policy declares, as a form. Values stay text until the dry run: main parses
 * them by each parameter's type (as it does `--param name=value`) and names a bad one.
 */
export function ParamForm({
  params,
  values,
  onChange,
}: {
  params: readonly PolicyParam[]
  values: Readonly<Record<string, string | boolean>>
  onChange: (name: string, value: string | boolean) => void
}) {
  if (params.length === 0) return <p className="note">This policy has no parameters.</p>
  return (
    <div className="policy-params" data-testid="policy-params">
      {params.map((p) => {
        const value = values[p.name]
        return (
          <label key={p.name} className="policy-param">
            <span className="param-label">
              {p.label}
              <span className="note">
                {' '}
                ({p.name}, {p.type})
              </span>
            </span>
            {p.type === 'boolean' ? (
              <input
                type="checkbox"
                data-testid={`param-${p.name}`}
                checked={value === true}
                onChange={(e) => onChange(p.name, e.target.checked)}
              />
            ) : (
              <input
                type="text"
                data-testid={`param-${p.name}`}
                value={typeof value === 'string' ? value : paramText(p.default)}
                placeholder={
                  p.type === 'workers'
                    ? 'worker ids, comma-separated'
                    : p.type === 'ratings'
                      ? 'ratings, comma-separated'
                      : p.type === 'number' && p.optional
                        ? 'none'
                        : ''
                }
                onChange={(e) => onChange(p.name, e.target.value)}
              />
            )}
          </label>
        )
      })}
    </div>
  )
}
