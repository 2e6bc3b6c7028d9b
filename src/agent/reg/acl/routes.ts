import type { Router } from '../../http/router';
import type { RegContext } from '../context';
import { addBindingRuleRoutes } from './binding-rules';
import { addBootstrapRoute } from './bootstrap';
import { addPolicyRoutes } from './policies';
import { addRoleRoutes } from './roles';
import { addTokenRoutes } from './tokens';

/** The ACL objects that auth methods and namespaces rely on (Consul's /v1/acl endpoints). */
export function addAclRoutes(router: Router, rc: RegContext): void {
  addBootstrapRoute(router, rc);
  addPolicyRoutes(router, rc);
  addRoleRoutes(router, rc);
  addTokenRoutes(router, rc);
  addBindingRuleRoutes(router, rc);
}
