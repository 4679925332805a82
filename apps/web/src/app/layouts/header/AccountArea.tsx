import { Avatar, Button, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconKey, IconLogin, IconLogout, IconPlus } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { paths } from '@datalab/contract/paths';
import { useCurrentUser } from '../../../features/account/api/get-current-user.ts';
import { loginUrl } from '../../../lib/auth/login-redirect.ts';
import { useSession } from '../../../lib/auth/session.ts';
import { useHasSessionEnded } from '../../../lib/auth/session-ended.ts';
import { useSignInAgain } from '../../../lib/auth/use-sign-in-again.ts';
import { initials } from '../../../lib/initials.ts';

export interface AccountAreaProps {
  tokensPath?: string;
  createTokenPath?: string;
}

/** Signed out: a Login link. Signed in: the avatar menu with the user's initials (product §2). */
export function AccountArea({ tokensPath = paths.tokens, createTokenPath = paths.tokenCreatePat }: AccountAreaProps) {
  const session = useSession();
  const { data: currentUser } = useCurrentUser();
  const location = useLocation();
  const hasEnded = useHasSessionEnded();
  const signInAgain = useSignInAgain();
  if (session.status === 'loading') return null;
  if (hasEnded) {
    return (
      <Button onClick={signInAgain} variant="light" size="sm" leftSection={<IconLogin size={16} />}>
        Sign in again
      </Button>
    );
  }
  if (!session.isSignedIn) {
    const here = `${location.pathname}${location.search}`;
    return (
      <Button component={Link} to={here === paths.home ? paths.login : loginUrl(here)} variant="light" size="sm">
        Login
      </Button>
    );
  }
  const profile = session.user?.profile;
  const name = currentUser?.name ?? profile?.name ?? profile?.preferred_username ?? '';
  const email = currentUser?.email ?? profile?.email;
  return (
    <Menu position="bottom-end" width={240}>
      <Menu.Target>
        {/* Named by its content, the initials it shows first, so what people see is what speech input can say. */}
        <UnstyledButton>
          <Avatar color="blue" radius="xl" size={36}>
            {initials(name)}
          </Avatar>
          <VisuallyHidden>Account menu</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {name}
          </Text>
          {email ? (
            <Text size="xs" c="dimmed" truncate>
              {email}
            </Text>
          ) : null}
        </Menu.Label>
        <Menu.Divider />
        <Menu.Item component={Link} to={tokensPath} leftSection={<IconKey size={16} stroke={1.5} />}>
          My tokens
        </Menu.Item>
        <Menu.Item component={Link} to={createTokenPath} leftSection={<IconPlus size={16} stroke={1.5} />}>
          Create personal access token
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to={paths.logout} leftSection={<IconLogout size={16} stroke={1.5} />}>
          Logout
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
