/**
 * `GET /v1/event/stream` (spec section 6): newline-delimited `{Index, Events}` messages, the backlog
 * from `index` first, then live ones, with `{}` heartbeats while idle. Each topic checks its own ACL
 * before anything is sent.
 */
import type { ServerResponse } from 'node:http';
import { forbidden } from '../../http/errors';
import { intParam } from '../../http/query';
import type { Router } from '../../http/router';
import type { StreamReply } from '../../http/server';
import type { SchedAuthorizer } from '../acl/authorize';
import type { Acl } from '../acl/acl';
import type { SchedContext } from '../context';
import { checkRegion } from '../routes/common';
import type { EventBroker } from './broker';
import { namespaceMatches, parseTopics, topicMatches, type TopicFilter } from './topics';

const NAMESPACED = new Set(['Job', 'Allocation', 'Deployment', 'Evaluation', 'Service']);

function topicAllowed(auth: SchedAuthorizer, acl: Acl, topic: string, ns: string): boolean {
  if (acl.management) return true;
  if (NAMESPACED.has(topic)) return auth.allows(acl, 'namespace:read-job', ns);
  if (topic === 'Node' || topic === 'NodeDrain') return auth.allows(acl, 'node:read', ns);
  // `*`, ACLToken, ACLPolicy and topics this agent does not know need a management token.
  return false;
}

export function eventStreamRoutes(
  router: Router,
  sc: SchedContext,
  broker: EventBroker,
  auth: SchedAuthorizer,
): void {
  router.get(
    '/v1/event/stream',
    (ctx) => {
      checkRegion(sc, ctx);
      const ns = ctx.query.get('namespace') || 'default';
      const fromIndex = intParam(ctx.query, 'index', { min: 0 }) ?? 0;
      const topics = parseTopics(ctx.query.getAll('topic'));
      const { token, acl } = auth.identify(ctx);
      if (auth.enabled) {
        for (const topic of topics.keys()) if (!topicAllowed(auth, acl, topic, ns)) throw forbidden();
      }
      const reply: StreamReply = {
        stream: (res, _ctx, encode) =>
          serve(res, encode, broker, topics, ns, fromIndex, token?.AccessorID, token?.Policies ?? []),
      };
      return reply;
    },
    { acl: 'none' },
  );
}

function serve(
  res: ServerResponse,
  encode: (message: unknown) => string,
  broker: EventBroker,
  topics: TopicFilter,
  ns: string,
  fromIndex: number,
  accessorId: string | undefined,
  policies: readonly string[],
): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  res.flushHeaders();
  let paused = false;
  let done = false;
  const write = (text: string): void => {
    if (!res.write(text) && !paused) {
      paused = true;
      res.once('drain', () => {
        paused = false;
        pump();
      });
    }
  };
  const pump = (): void => {
    while (!paused && !done) {
      const m = sub.take();
      if (!m) return;
      write(encode(m) + '\n');
    }
  };
  const finish = (): void => {
    done = true;
    clearInterval(heartbeat);
  };
  const sub = broker.subscribe({
    fromIndex,
    filter: (e) => topicMatches(topics, e) && namespaceMatches(ns, e),
    onReady: () => pump(),
    onClose: (reason) => {
      if (done) return;
      finish();
      // A reader that fell behind cannot take more bytes anyway: cut the connection.
      if (reason === 'overflow') res.destroy();
      else res.end();
    },
    accessorId,
    policies,
  });
  const heartbeat = setInterval(() => {
    if (!paused && sub.pending === 0) write('{}\n');
  }, broker.limits.heartbeatMs);
  res.on('close', () => {
    finish();
    sub.close('shutdown');
  });
  pump();
}
