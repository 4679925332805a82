import { z } from 'zod';
import { defineCall } from '../call.ts';

export const permissions = z.object({ canManageUsers: z.boolean() });
export type Permissions = z.infer<typeof permissions>;

export const currentUser = z.object({
  id: z.number().int(),
  name: z.string(),
  username: z.string().nullable(),
  email: z.string().nullable(),
  permissions,
  /** Whether the user may create collections (canManageUsers or a member of a creator group). */
  canCreateCollections: z.boolean(),
  /**
   * Whether the navigation offers the Digital Lab: members of a Digital Lab group (DIGITAL_LAB_GROUPS, directly or
   * through nesting) and holders of canManageUsers, who look after the partners.
   */
  canUseDigitalLab: z.boolean(),
  /**
   * A partner and nothing else (only Digital Lab groups, no role above Reader, no system permission): sign-in lands
   * in the Digital Lab rather than on the portal's home page.
   */
  isDigitalLabOnly: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const getCurrentUser = defineCall({
  method: 'GET',
  path: '/api/Account/GetCurrentUser',
  tag: 'Account',
  summary: 'The signed-in user: name and system permissions',
  response: currentUser,
});
