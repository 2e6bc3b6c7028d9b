/** service-router checks (Consul's ServiceRouterConfigEntry.Validate). */
import { invalidField } from '../../http/errors';
import { isObject, type Body } from '../request';
import { checkRegex, normalizeDuration } from './shared';

const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE'];

export function normalizeRouter(e: Body): void {
  const routes = e['Routes'];
  if (routes === undefined || routes === null) {
    e['Routes'] = [];
    return;
  }
  (routes as Body[]).forEach((route, i) => {
    const f = `Routes[${i}]`;
    const http =
      isObject(route['Match']) && isObject(route['Match']['HTTP']) ? route['Match']['HTTP'] : undefined;
    let rewritable = false;
    if (http) {
      const paths = ['PathExact', 'PathPrefix', 'PathRegex'].filter(
        (k) => typeof http[k] === 'string' && http[k] !== '',
      );
      if (paths.length > 1)
        throw invalidField(
          `${f}.Match.HTTP`,
          `at most one of PathExact, PathPrefix or PathRegex may be set; got ${paths.join(', ')} (rule: one-path-match)`,
        );
      for (const k of ['PathExact', 'PathPrefix']) {
        const v = http[k];
        if (typeof v === 'string' && v !== '') {
          rewritable = true;
          if (!v.startsWith('/'))
            throw invalidField(
              `${f}.Match.HTTP.${k}`,
              `must begin with "/"; got ${JSON.stringify(v)} (rule: leading-slash)`,
            );
        }
      }
      const regex = http['PathRegex'];
      if (typeof regex === 'string' && regex !== '') checkRegex(`${f}.Match.HTTP.PathRegex`, regex);
      ((http['Header'] as Body[] | undefined) ?? []).forEach((h, j) => {
        const hf = `${f}.Match.HTTP.Header[${j}]`;
        if (typeof h['Name'] !== 'string' || h['Name'] === '')
          throw invalidField(`${hf}.Name`, 'is required (rule: required)');
        const set = ['Exact', 'Prefix', 'Suffix', 'Regex'].filter(
          (k) => typeof h[k] === 'string' && h[k] !== '',
        );
        if (h['Present'] === true) set.push('Present');
        if (set.length !== 1)
          throw invalidField(
            hf,
            `exactly one of Present, Exact, Prefix, Suffix or Regex must be set; got ${set.length} (rule: one-header-match)`,
          );
      });
      ((http['QueryParam'] as Body[] | undefined) ?? []).forEach((q, j) => {
        const qf = `${f}.Match.HTTP.QueryParam[${j}]`;
        if (typeof q['Name'] !== 'string' || q['Name'] === '')
          throw invalidField(`${qf}.Name`, 'is required (rule: required)');
        const set = ['Exact', 'Regex'].filter((k) => typeof q[k] === 'string' && q[k] !== '');
        if (q['Present'] === true) set.push('Present');
        if (set.length !== 1)
          throw invalidField(
            qf,
            `exactly one of Present, Exact or Regex must be set; got ${set.length} (rule: one-query-match)`,
          );
      });
      const methods = (http['Methods'] as unknown[] | undefined) ?? [];
      const upper = methods.map((m) => String(m).toUpperCase());
      upper.forEach((m, j) => {
        if (!HTTP_METHODS.includes(m))
          throw invalidField(
            `${f}.Match.HTTP.Methods[${j}]`,
            `${JSON.stringify(m)} is not an HTTP method (rule: http-method)`,
          );
        if (upper.indexOf(m) !== j)
          throw invalidField(`${f}.Match.HTTP.Methods[${j}]`, `${m} occurs more than once (rule: unique)`);
      });
      if (methods.length > 0) http['Methods'] = upper;
    }
    const dest = isObject(route['Destination']) ? route['Destination'] : undefined;
    if (dest) {
      if (typeof dest['PrefixRewrite'] === 'string' && dest['PrefixRewrite'] !== '' && !rewritable)
        throw invalidField(
          `${f}.Destination.PrefixRewrite`,
          'needs PathExact or PathPrefix in the route match (rule: prefix-rewrite)',
        );
      normalizeDuration(dest, 'RequestTimeout', `${f}.Destination.RequestTimeout`);
      normalizeDuration(dest, 'IdleTimeout', `${f}.Destination.IdleTimeout`);
      const n = dest['NumRetries'];
      if (n !== undefined && n !== null && (!Number.isInteger(n) || (n as number) < 0))
        throw invalidField(
          `${f}.Destination.NumRetries`,
          `must be a non-negative integer; got ${JSON.stringify(n)} (rule: non-negative)`,
        );
      ((dest['RetryOnStatusCodes'] as unknown[] | undefined) ?? []).forEach((c, j) => {
        if (!Number.isInteger(c) || (c as number) < 100 || (c as number) > 599)
          throw invalidField(
            `${f}.Destination.RetryOnStatusCodes[${j}]`,
            `must be an HTTP status code (100-599); got ${JSON.stringify(c)} (rule: status-code)`,
          );
      });
    }
  });
}
