/**
 * Default policies and roles of a namespace are configured by name or by ID, and the registry answers with
 * both. These helpers keep whichever form the configuration used, so switching between the two, or an
 * import that records names, never shows as a change.
 */
import type { ACLLink } from '../../api/reg/schemas';
import { sameSet } from './compare';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A configured reference as an ACLLink: IDs are UUIDs, anything else is a name. */
export function toLink(ref: string): { ID?: string; Name?: string } {
  return UUID_RE.test(ref) ? { ID: ref } : { Name: ref };
}

function matches(link: ACLLink, ref: string): boolean {
  return link.ID === ref || link.Name === ref;
}

/**
 * The links as state: each one in the form `like` names it, links `like` does not mention by name (added out
 * of band) and nothing for references the registry no longer has. null when there are none.
 */
export function linksAsState(links: readonly ACLLink[] | undefined, like: unknown): string[] | null {
  const server = [...(links ?? [])];
  const used = new Set<number>();
  const out: string[] = [];
  if (Array.isArray(like)) {
    for (const ref of like) {
      if (typeof ref !== 'string') continue;
      const i = server.findIndex((l, idx) => !used.has(idx) && matches(l, ref));
      if (i < 0) continue;
      used.add(i);
      out.push(ref);
    }
  }
  server.forEach((l, i) => {
    if (!used.has(i)) out.push(l.Name ?? l.ID ?? '');
  });
  return out.length > 0 ? out : null;
}

/** Set equality where a name and the ID of the same policy or role (as `known` links show) are one value. */
export function sameLinks(known: readonly ACLLink[]): (a: unknown, b: unknown) => boolean {
  const canonical = (ref: string): string => {
    const l = known.find((k) => matches(k, ref));
    return l?.ID ?? ref;
  };
  return (a, b) => sameSet(a, b, canonical);
}
