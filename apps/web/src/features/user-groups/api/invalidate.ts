import type { QueryClient } from '@tanstack/react-query';
import { invalidateScopes } from '../../../lib/query-scopes.ts';

/**
 * After any change to groups: counts, members and hierarchies of other groups move too, users show
 * their groups, and effective roles follow memberships and nesting.
 */
export function invalidateAfterGroupChange(queryClient: QueryClient) {
  return invalidateScopes(queryClient, 'userGroups', 'users', 'dataRoles', 'collections');
}
