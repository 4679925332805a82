import { expect, it } from 'vitest';
import {
  MAX_GROUP_DEPTH,
  userGroupDetail,
  userGroupHierarchy,
  userGroupSummary,
  type HierarchyNode,
} from '@datalab/contract/api/user-groups';
import { problem } from '@datalab/contract/errors';
import { pageOf } from '@datalab/contract/paging';
import { auditRecords, buildGroup, buildPerson, unique, type Person } from '../../../test/support/builders.ts';
import { describeEachStore } from '../../../test/support/suite.ts';

// Renaming groups, the nesting picker's candidates, the hierarchy of diamond-shaped nesting, sorting.

const page = pageOf(userGroupSummary);

function countNodes(nodes: readonly HierarchyNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countNodes(node.children), 0);
}

describeEachStore('user groups: renaming, nesting candidates, diamonds and sorting', (ctx) => {
  const nest = (admin: Person, parent: number, child: number) =>
    admin.call('POST', `/api/UserGroup/${parent}/UserGroup/${child}`);

  it('renames and describes a group, refusing a name another group has', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const group = await buildGroup(ctx(), admin);
    const other = await buildGroup(ctx(), admin);
    const name = unique('Renamed');
    const renamed = await admin.call('PUT', `/api/UserGroup/${group.id}`, { name, description: 'Now described' });
    expect(userGroupDetail.parse(renamed.json())).toMatchObject({ id: group.id, name, description: 'Now described' });
    const clash = await admin.call('PUT', `/api/UserGroup/${group.id}`, {
      name: other.name.toUpperCase(),
      description: '',
    });
    expect(clash.statusCode).toBe(409);
    expect(problem.parse(clash.json()).title).toBe(`User group with name ${other.name.toUpperCase()} already exists`);
    expect(
      (await admin.call('PUT', `/api/UserGroup/${group.id}`, { name, description: 'same name is fine' })).statusCode,
    ).toBe(200);
    const record = (await auditRecords(ctx(), 'userGroup.update')).find(
      (r) => (r.details.after as { name: string }).name === name,
    );
    expect(record?.details.before).toMatchObject({ name: group.name });
    expect((await admin.call('PUT', '/api/UserGroup/999999', { name: unique('x'), description: '' })).statusCode).toBe(
      404,
    );
  });

  it('offers as nesting candidates only groups that make no cycle, fit the depth and are not nested yet', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tag = unique('cand');
    const chain: { id: number }[] = [];
    for (let i = 0; i < MAX_GROUP_DEPTH; i += 1)
      chain.push(await buildGroup(ctx(), admin, { name: `${tag} chain ${i}` }));
    for (let i = 0; i + 1 < chain.length; i += 1)
      expect((await nest(admin, chain[i]?.id ?? 0, chain[i + 1]?.id ?? 0)).statusCode).toBe(200);
    await buildGroup(ctx(), admin, { name: `${tag} loose` });
    const candidates = async (index: number) =>
      (await admin.call('GET', `/api/UserGroup/${chain[index]?.id}/NestingCandidates?search=${tag}&limit=50`))
        .json<{ name: string }[]>()
        .map((g) => g.name.slice(tag.length + 1));
    // From the middle: groups above would make a cycle, the child is nested already, the rest fit.
    expect(await candidates(2)).toEqual(['chain 4', 'chain 5', 'loose']);
    // One above the bottom: only a group without children fits under it, and the bottom is its child already.
    expect(await candidates(MAX_GROUP_DEPTH - 2)).toEqual(['loose']);
    // At the bottom of a full chain nothing fits.
    expect(await candidates(MAX_GROUP_DEPTH - 1)).toEqual([]);
  });

  it('says whether a refused nesting would make a cycle or be too deep', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const chain: { id: number }[] = [];
    for (let i = 0; i <= MAX_GROUP_DEPTH; i += 1) chain.push(await buildGroup(ctx(), admin));
    for (let i = 0; i + 2 < chain.length; i += 1) await nest(admin, chain[i]?.id ?? 0, chain[i + 1]?.id ?? 0);
    const cycle = await nest(admin, chain[1]?.id ?? 0, chain[0]?.id ?? 0);
    expect(problem.parse(cycle.json()).title).toMatch(/would create a cycle$/);
    const deep = await nest(admin, chain[MAX_GROUP_DEPTH - 1]?.id ?? 0, chain[MAX_GROUP_DEPTH]?.id ?? 0);
    expect(deep.json().errors).toEqual({ childId: ['Max depth reached'] });
  });

  it('answers the hierarchy of diamond-shaped nesting with each group once', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    // Layers of three groups, each nested in every group of the layer above: 3^5 paths to the bottom.
    const layers: number[][] = [];
    for (let depth = 0; depth < MAX_GROUP_DEPTH; depth += 1) {
      const layer = [];
      for (let i = 0; i < 3; i += 1) layer.push((await buildGroup(ctx(), admin)).id);
      for (const parent of layers[depth - 1] ?? [])
        for (const child of layer) expect((await nest(admin, parent, child)).statusCode).toBe(200);
      layers.push(layer);
    }
    const edges = 3 * 3 * (MAX_GROUP_DEPTH - 1);
    const top = layers[0]?.[0] ?? 0;
    const response = await admin.call('GET', `/api/UserGroup/${top}/Hierarchy`);
    const view = userGroupHierarchy.parse(response.json());
    expect(countNodes(view.descendants)).toBeLessThanOrEqual(edges);
    const expanded: number[] = [];
    const walk = (nodes: readonly HierarchyNode[]) =>
      nodes.forEach((n) => (n.isReference ? undefined : (expanded.push(n.id), walk(n.children))));
    walk(view.descendants);
    expect(expanded.sort()).toEqual(layers.slice(1).flat().sort());
    const bottom = layers[MAX_GROUP_DEPTH - 1]?.[0] ?? 0;
    const up = userGroupHierarchy.parse((await admin.call('GET', `/api/UserGroup/${bottom}/Hierarchy`)).json());
    expect(countNodes(up.ancestors)).toBeLessThanOrEqual(edges);
    expect(response.body.length).toBeLessThan(10_000);
  });

  it('sorts groups by member count', async () => {
    const admin = await buildPerson(ctx(), { canManageUsers: true });
    const tag = unique('crowd');
    const [one, two] = [await buildPerson(ctx()), await buildPerson(ctx())];
    await buildGroup(ctx(), admin, { name: `${tag} one`, members: [one] });
    await buildGroup(ctx(), admin, { name: `${tag} none` });
    await buildGroup(ctx(), admin, { name: `${tag} two`, members: [one, two] });
    const names = async (query: string) =>
      page
        .parse((await admin.call('GET', `/api/UserGroup?search=${tag}&${query}`)).json())
        .items.map((g) => g.name.split(' ').pop());
    expect(await names('sortBy=memberCount&sortDirection=desc')).toEqual(['two', 'one', 'none']);
    expect(await names('sortBy=name')).toEqual(['none', 'one', 'two']);
  });
});
