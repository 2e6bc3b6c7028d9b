import type { IncomingHttpHeaders } from 'node:http';

/**
 * The token a request carries in headers: the service's own token header (`x-sched-token`, `x-reg-token`)
 * wins over `Authorization: Bearer`, as in Nomad and Consul.
 */
export function headerToken(headers: IncomingHttpHeaders, tokenHeader: string): string | undefined {
  const h = headers[tokenHeader];
  if (typeof h === 'string' && h !== '') return h;
  const auth = headers['authorization'];
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
    if (m) return m[1];
  }
  return undefined;
}
