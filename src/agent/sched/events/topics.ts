/**
 * The `topic` parameters of the event stream: `Topic`, `Topic:*` or `Topic:<key>`, repeated; none
 * means every topic. A key matches an event's Key or any of its FilterKeys, as in Nomad. Topic
 * `NodeDrain` receives the Node events of type NodeDrain (Nomad publishes drains on the Node topic).
 */
import { badRequest } from '../../http/errors';
import type { SchedEvent } from './types';

/** Topic to its keys; a `*` key (or topic) matches everything. */
export type TopicFilter = Map<string, Set<string>>;

export function parseTopics(values: readonly string[]): TopicFilter {
  const out: TopicFilter = new Map();
  if (values.length === 0) {
    out.set('*', new Set(['*']));
    return out;
  }
  for (const v of values) {
    const i = v.indexOf(':');
    const topic = i < 0 ? v : v.slice(0, i);
    const key = i < 0 ? '*' : v.slice(i + 1);
    if (!topic) throw badRequest(`topic: invalid topic "${v}" (the form is Topic or Topic:filter_key)`);
    if (!key) throw badRequest(`topic: empty filter key in "${v}" (use Topic:* for every key)`);
    let keys = out.get(topic);
    if (!keys) out.set(topic, (keys = new Set()));
    keys.add(key);
  }
  return out;
}

function keysMatch(keys: Set<string>, e: SchedEvent): boolean {
  if (keys.has('*') || keys.has(e.Key)) return true;
  for (const k of e.FilterKeys ?? []) if (keys.has(k)) return true;
  return false;
}

export function topicMatches(filter: TopicFilter, e: SchedEvent): boolean {
  const all = filter.get('*');
  if (all && keysMatch(all, e)) return true;
  const keys = filter.get(e.Topic);
  if (keys && keysMatch(keys, e)) return true;
  const drain = filter.get('NodeDrain');
  return !!drain && e.Topic === 'Node' && e.Type === 'NodeDrain' && keysMatch(drain, e);
}

/** Events without a namespace (nodes, ACL objects) reach every namespace's subscribers. */
export function namespaceMatches(ns: string, e: SchedEvent): boolean {
  return ns === '*' || e.Namespace === '' || e.Namespace === ns;
}
