import type { StoredAuthMethod } from '../model';
import { goDuration } from '../request';

/** Consul's JSON: MaxTokenTTL as a Go duration, empty optional fields left out. */
export function renderAuthMethod(m: StoredAuthMethod, withConfig = true): Record<string, unknown> {
  const out: Record<string, unknown> = { Name: m.Name, Type: m.Type };
  if (m.DisplayName) out['DisplayName'] = m.DisplayName;
  out['Description'] = m.Description;
  if (m.MaxTokenTTLMs > 0) out['MaxTokenTTL'] = goDuration(m.MaxTokenTTLMs);
  if (m.TokenLocality) out['TokenLocality'] = m.TokenLocality;
  if (withConfig) out['Config'] = m.Config;
  out['Namespace'] = m.Namespace;
  if (withConfig && m.NamespaceRules.length > 0) out['NamespaceRules'] = m.NamespaceRules;
  out['CreateIndex'] = m.CreateIndex;
  out['ModifyIndex'] = m.ModifyIndex;
  return out;
}
