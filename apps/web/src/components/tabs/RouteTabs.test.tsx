import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderUi } from '../../test/render-ui.tsx';
import { RouteTabs, tabFromSegment, type RouteTab } from './RouteTabs.tsx';

const tabs: RouteTab<'members' | 'groups'>[] = [
  { value: 'members', label: 'Members', count: 3 },
  { value: 'groups', label: 'Child groups' },
];

describe('tabFromSegment', () => {
  it('names the default tab without a segment, the tab named, or none for an unknown one', () => {
    expect(tabFromSegment(tabs, undefined, 'members')).toBe('members');
    expect(tabFromSegment(tabs, 'groups', 'members')).toBe('groups');
    expect(tabFromSegment(tabs, 'roles', 'members')).toBeNull();
  });
});

describe('RouteTabs', () => {
  it('shows the tab of the URL and navigates to the one chosen, rendering only the open panel', async () => {
    const user = userEvent.setup();
    const { location } = renderUi(
      <RouteTabs label="Sections" tabs={tabs} value="members" pathFor={(tab) => `/group/12/${tab}`}>
        <p>members panel</p>
      </RouteTabs>,
      { path: '/group/12/members' },
    );
    expect(screen.getByRole('tab', { name: /Members/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('members panel')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Child groups' }));
    await waitFor(() => expect(location()).toBe('/group/12/groups'));
  });
});
