import type { UserListItem, UserPickerItem } from '@datalab/contract/api/users';
import type { User } from '../../db/schema.ts';

// Shapes user replies: the full list item for administrators, a narrow picker item for others.

type Membership = { user_id: number; id: number; name: string };

export function presentUser(user: User, memberships: readonly Membership[]): UserListItem {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    email: user.email,
    permissions: { canManageUsers: Boolean(user.can_manage_users) },
    isActive: Boolean(user.is_active),
    lastSeenAt: user.last_seen_at === null ? null : new Date(user.last_seen_at),
    createdAt: new Date(user.created_at),
    groups: memberships.filter((m) => m.user_id === user.id).map((m) => ({ id: m.id, name: m.name })),
  };
}

/** Name and username for everyone; e-mail and direct groups only when the caller manages users. */
export function presentPickerItem(
  user: { id: number; name: string; username: string | null; email: string | null },
  memberships: readonly Membership[] | undefined,
): UserPickerItem {
  const item: UserPickerItem = { id: user.id, name: user.name, username: user.username };
  if (!memberships) return item;
  return {
    ...item,
    email: user.email,
    groups: memberships.filter((m) => m.user_id === user.id).map((m) => ({ id: m.id, name: m.name })),
  };
}
