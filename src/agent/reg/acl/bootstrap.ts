/** PUT /v1/acl/bootstrap: mints the first management token, once (Consul's ACL bootstrap). */
import { HttpError, invalidField } from '../../http/errors';
import type { Router } from '../../http/router';
import { newId } from '../../ids';
import type { RegContext } from '../context';
import { bodyObject, optString } from '../request';
import { T } from '../tables';
import { managementToken } from './builtins';
import { UUID_RE } from './identities';
import { renderToken } from './tokens';

export const BOOTSTRAP_KEY = 'acl_bootstrap';

export function addBootstrapRoute(router: Router, rc: RegContext): void {
  const { store } = rc;
  router.add('PUT', '/v1/acl/bootstrap', async (ctx) => {
    const body = await bodyObject(ctx, true);
    const secret = optString(body, 'BootstrapSecret') || newId();
    if (!UUID_RE.test(secret)) throw invalidField('BootstrapSecret', 'must be a UUID (rule: uuid)');
    const { result } = store.write((tx) => {
      const done = tx.get<{ Index: number }>(T.meta, BOOTSTRAP_KEY);
      if (done)
        throw new HttpError(
          403,
          `Permission denied: ACL bootstrap no longer allowed (reset index: ${done.Index})`,
        );
      tx.putRaw(T.meta, BOOTSTRAP_KEY, { Index: tx.index });
      const accessor = newId();
      return tx.put(
        T.tokens,
        accessor,
        managementToken(accessor, secret, 'Bootstrap Token (Global Management)', Date.now()),
      );
    });
    return { body: renderToken(store, result) };
  });
}
