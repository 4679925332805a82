import { expect, it } from 'vitest';
import { MAX_GROUP_DEPTH, userGroupDetail, userGroupHierarchy } from '@datalab/contract/api/user-groups';
import { problem, validationProblem } from '@datalab/contract/errors';
import { auditRecords, buildGroup, buildPerson, unique } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

describeEachStore('user groups', (ctx) => {
  it('creates a group, refuses a duplicate name, and audits', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const name = unique('Finance');
    const created = await admin.call('POST', '/api/UserGroup', { name, description: 'Money people' });
    expect(created.statusCode).toBe(201);
    expect(userGroupDetail.parse(created.json())).toMatchObject({ name, memberCount: 0, parents: [], children: [] });
    const duplicate = await admin.call('POST', '/api/UserGroup', { name: name.toLowerCase() });
    expect(duplicate.statusCode).toBe(409);
    expect(problem.parse(duplicate.json()).title).toBe(`User group with name ${name.toLowerCase()} already exists`);
    expect(
      (await auditRecords(ctx(), 'userGroup.create')).some((r) => (r.details.after as { name: string }).name === name),
    ).toBe(true);
  });

  it('refuses cycles saying so in words, and leaves the nesting as it was', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const a = await buildGroup(ctx(), admin);
    const b = await buildGroup(ctx(), admin);
    const c = await buildGroup(ctx(), admin);
    await admin.call('POST', `/api/UserGroup/${a.id}/UserGroup/${b.id}`);
    await admin.call('POST', `/api/UserGroup/${b.id}/UserGroup/${c.id}`);
    for (const [parent, child] of [
      [c, a],
      [b, a],
      [a, a],
    ] as const) {
      const response = await admin.call('POST', `/api/UserGroup/${parent.id}/UserGroup/${child.id}`);
      expect(response.statusCode).toBe(400);
      const [message] = validationProblem.parse(response.json()).errors['childId'] ?? [];
      expect(message).toMatch(/would create a cycle$/);
      expect(message).toContain(child.name);
    }
    const edges = await ctx()
      .app.db.selectFrom('user_group_children')
      .selectAll()
      .where('parent_id', 'in', [a.id, b.id, c.id])
      .execute();
    expect(edges.map((e) => [e.parent_id, e.child_id]).sort()).toEqual(
      [
        [a.id, b.id],
        [b.id, c.id],
      ].sort(),
    );
  });

  it(`allows chains of ${MAX_GROUP_DEPTH} groups and no longer`, async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const chain = [];
    for (let i = 0; i <= MAX_GROUP_DEPTH; i += 1) chain.push(await buildGroup(ctx(), admin));
    for (let i = 0; i < MAX_GROUP_DEPTH - 1; i += 1) {
      expect(
        (await admin.call('POST', `/api/UserGroup/${chain[i]?.id}/UserGroup/${chain[i + 1]?.id}`)).statusCode,
      ).toBe(200);
    }
    const tooDeep = await admin.call(
      'POST',
      `/api/UserGroup/${chain[MAX_GROUP_DEPTH - 1]?.id}/UserGroup/${chain[MAX_GROUP_DEPTH]?.id}`,
    );
    expect(tooDeep.statusCode).toBe(400);
    expect(problem.parse(tooDeep.json()).title).toBe('Max depth reached');
  });

  it('shows the hierarchy: ancestors upwards and descendants downwards', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const [top, middle, bottom, side] = [
      await buildGroup(ctx(), admin),
      await buildGroup(ctx(), admin),
      await buildGroup(ctx(), admin),
      await buildGroup(ctx(), admin),
    ];
    await admin.call('POST', `/api/UserGroup/${top?.id}/UserGroup/${middle?.id}`);
    await admin.call('POST', `/api/UserGroup/${middle?.id}/UserGroup/${bottom?.id}`);
    await admin.call('POST', `/api/UserGroup/${side?.id}/UserGroup/${middle?.id}`);
    const view = userGroupHierarchy.parse((await admin.call('GET', `/api/UserGroup/${middle?.id}/Hierarchy`)).json());
    expect(view.ancestors.map((n) => n.id).sort()).toEqual([top?.id, side?.id].sort());
    expect(view.descendants).toEqual([{ id: bottom?.id, name: bottom?.name, children: [] }]);
    const fromTop = userGroupHierarchy.parse((await admin.call('GET', `/api/UserGroup/${top?.id}/Hierarchy`)).json());
    expect(fromTop.descendants[0]?.children.map((n) => n.id)).toEqual([bottom?.id]);
  });

  it('manages members, answers unknown ids with the template, and deletes a group with its ties', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const member = await buildPerson(ctx());
    const group = await buildGroup(ctx(), admin, { members: [member] });
    const members = await admin.call('GET', `/api/UserGroup/${group.id}/Users`);
    expect(members.json().map((m: { id: number }) => m.id)).toEqual([member.id]);
    const unknownUser = await admin.call('POST', `/api/UserGroup/${group.id}/User/999999`);
    expect([unknownUser.statusCode, problem.parse(unknownUser.json()).title]).toEqual([
      404,
      'User with id 999999 does not exist',
    ]);
    const unknownGroup = await admin.call('GET', '/api/UserGroup/999999');
    expect([unknownGroup.statusCode, problem.parse(unknownGroup.json()).title]).toEqual([
      404,
      'User group with id 999999 does not exist',
    ]);
    expect((await admin.call('DELETE', `/api/UserGroup/${group.id}`)).json()).toEqual({ id: group.id, deleted: true });
    expect(
      await ctx().app.db.selectFrom('user_group_members').selectAll().where('group_id', '=', group.id).execute(),
    ).toEqual([]);
    const record = (await auditRecords(ctx(), 'userGroup.delete')).find(
      (r) => (r.details.before as { id: number }).id === group.id,
    );
    expect(record?.details.before).toMatchObject({ members: [member.id] });
  });

  it('suggests groups by name', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tag = unique('quartz');
    await buildGroup(ctx(), admin, { name: `${tag} alpha` });
    const found = await admin.call('GET', `/api/UserGroup/Autocomplete?search=${tag}`);
    expect(found.json().map((g: { name: string }) => g.name)).toEqual([`${tag} alpha`]);
  });
});
