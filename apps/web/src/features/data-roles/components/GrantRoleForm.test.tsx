import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PickerSlot } from '../../../components/pickers/picker-slot.ts';
import { renderUi } from '../../../test/render-ui.tsx';
import { GrantRoleForm } from './GrantRoleForm.tsx';

// Stand-ins for the users' and groups' pickers: one button per candidate not excluded.
function fakePicker(candidates: { id: number; label: string }[]): PickerSlot {
  return function FakePicker({ label, selected, onSelect, excludedIds }) {
    return (
      <div>
        <p>
          {label} picked: {selected?.label ?? 'nobody'}
        </p>
        {candidates
          .filter((c) => !excludedIds.includes(c.id))
          .map((c) => (
            <button key={c.id} type="button" onClick={() => onSelect(c)}>
              pick {c.label}
            </button>
          ))}
      </div>
    );
  };
}

function renderForm(onGrant = vi.fn(async () => undefined)) {
  renderUi(
    <GrantRoleForm
      renderUserPicker={fakePicker([
        { id: 1, label: 'Ada' },
        { id: 2, label: 'Grace' },
      ])}
      renderGroupPicker={fakePicker([{ id: 7, label: 'Analysts' }])}
      excludedUserIds={[1]}
      excludedGroupIds={[]}
      onGrant={onGrant}
    />,
  );
  return onGrant;
}

describe('GrantRoleForm', () => {
  it('grants the picked user the chosen role, then clears the choice', async () => {
    const user = userEvent.setup();
    const onGrant = renderForm();
    const grant = screen.getByRole('button', { name: 'Grant' });
    expect(grant).toHaveProperty('disabled', true);
    expect(screen.queryByRole('button', { name: 'pick Ada' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'pick Grace' }));
    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Editor' }));
    await user.click(grant);

    expect(onGrant).toHaveBeenCalledWith({ kind: 'user', id: 2, name: 'Grace', role: 'Editor' });
    await waitFor(() => expect(screen.getByText('User picked: nobody')).toBeTruthy());
  });

  it('switches to groups, forgetting the user picked, with Reader as the default role', async () => {
    const user = userEvent.setup();
    const onGrant = renderForm();
    await user.click(screen.getByRole('button', { name: 'pick Grace' }));
    await user.click(screen.getByText('Group'));
    expect(screen.getByText('Group picked: nobody')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Grant' })).toHaveProperty('disabled', true);

    await user.click(screen.getByRole('button', { name: 'pick Analysts' }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    expect(onGrant).toHaveBeenCalledWith({ kind: 'group', id: 7, name: 'Analysts', role: 'Reader' });
  });

  it('keeps the choice when the grant is refused', async () => {
    const user = userEvent.setup();
    const onGrant = renderForm(vi.fn(async () => Promise.reject(new Error('refused'))));
    await user.click(screen.getByRole('button', { name: 'pick Grace' }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    await waitFor(() => expect(onGrant).toHaveBeenCalled());
    expect(screen.getByText('User picked: Grace')).toBeTruthy();
  });
});
