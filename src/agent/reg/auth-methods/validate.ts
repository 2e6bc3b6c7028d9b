/** An auth method request body, checked rule by rule (spec sections 2, 7, 8), to the stored form. */
import { AuthMethodUpdateRequestSchema, DurationSchema } from '../../../api/reg/schemas';
import { checkMaxTokenTtl, durationToMs } from '../../../api/reg/rules';
import { checkTemplate } from '../acl/templates';
import { parseFilter, FilterError } from '../../filter';
import type { NamespaceRule, StoredAuthMethod } from '../model';
import { checkTypes, isObject, refuse, rule, type Body } from '../request';
import { DEFAULT_NAMESPACE } from '../tables';
import { checkAuthMethodConfig } from './types';

const BodyTypes = AuthMethodUpdateRequestSchema.extend({ MaxTokenTTL: DurationSchema.optional() });

function namespaceRules(raw: unknown, namespace: string): NamespaceRule[] {
  if (raw === undefined || raw === null) return [];
  const list = raw as unknown[];
  if (list.length > 0 && namespace !== DEFAULT_NAMESPACE) {
    refuse([
      rule(
        'NamespaceRules',
        'default-namespace-only',
        `may only be set on auth methods in the "default" namespace; this one is in "${namespace}"`,
      ),
    ]);
  }
  return list.map((r, i) => {
    const o = isObject(r) ? r : {};
    const selector = typeof o['Selector'] === 'string' ? o['Selector'] : '';
    const bind = String(o['BindNamespace'] ?? '');
    if (selector !== '') {
      try {
        parseFilter(selector);
      } catch (err) {
        if (err instanceof FilterError)
          refuse([rule(`NamespaceRules[${i}].Selector`, 'selector', err.message)]);
        throw err;
      }
    }
    refuse([checkTemplate(`NamespaceRules[${i}].BindNamespace`, bind)]);
    return { Selector: selector, BindNamespace: bind };
  });
}

/**
 * The stored method for a create or update body whose generic rules already passed. `type` is the
 * effective Type (the stored one on update), which also decides whether MaxTokenTTL may be zero.
 */
export function buildAuthMethod(body: Body, name: string, type: string, namespace: string): StoredAuthMethod {
  checkTypes(BodyTypes, body);
  refuse([checkMaxTokenTtl('MaxTokenTTL', body['MaxTokenTTL'], type)]);
  const config = body['Config'] as Record<string, unknown>;
  refuse([checkAuthMethodConfig(type, config)]);
  const ttl = body['MaxTokenTTL'];
  return {
    Name: name,
    Type: type,
    DisplayName: typeof body['DisplayName'] === 'string' ? body['DisplayName'] : '',
    Description: typeof body['Description'] === 'string' ? body['Description'] : '',
    MaxTokenTTLMs: ttl === undefined || ttl === null ? 0 : (durationToMs(ttl) ?? 0),
    TokenLocality: typeof body['TokenLocality'] === 'string' ? body['TokenLocality'] : '',
    Config: config,
    Namespace: namespace,
    NamespaceRules: namespaceRules(body['NamespaceRules'], namespace),
  };
}
