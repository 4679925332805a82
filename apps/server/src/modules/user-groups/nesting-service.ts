import { MAX_GROUP_DEPTH } from '@datalab/contract/api/user-groups';
import { messages } from '@datalab/contract/messages';
import type { Database } from '../../db/database.ts';
import { AppError } from '../../lib/errors.ts';
import { changeAccess, type Actor } from '../access/change-access.service.ts';
import { groupGraph } from '../access/group-graph.service.ts';
import { collectionsOwnedThrough, keepingOwners, refusingSelfRaise } from '../access/invariants.service.ts';
import { nestingCandidates, nestingProblem, referenceTrees, type NestingProblem } from './nesting.ts';
import { presentSummary } from './presenter.ts';
import { childrenOf, searchGroupRefs, setNesting } from './repository.ts';
import { groupOr404 } from './service.ts';

// Nesting groups in groups: the change with its refusals in words, the picker's candidates, and the
// hierarchy view.

function refusal(problem: NestingProblem, parent: string, child: string): AppError {
  const text =
    problem.kind === 'depth'
      ? messages.maxDepthReached
      : problem.kind === 'self'
        ? `A group cannot contain itself: nesting ${child} in ${parent} would create a cycle`
        : `${child} already contains ${parent}: nesting it there would create a cycle`;
  const detail =
    problem.kind === 'depth'
      ? `Groups nest at most ${MAX_GROUP_DEPTH} deep; this would make a chain of ${problem.chain}.`
      : text;
  return new AppError({ status: 400, code: 'validation', title: text, detail, errors: { childId: [text] } });
}

export async function changeNesting(actor: Actor, parentId: number, childId: number, nested: boolean) {
  await changeAccess(actor, async (trx) => {
    const parent = await groupOr404(trx, parentId);
    const child = await groupOr404(trx, childId);
    const { graph } = await groupGraph(trx);
    if ((graph.children.get(parentId) ?? []).includes(childId) === nested) return;
    const change = () => setNesting(trx, parentId, childId, nested);
    if (nested) {
      const problem = nestingProblem(graph, parentId, childId);
      if (problem) throw refusal(problem, parent.name, child.name);
      await refusingSelfRaise(trx, actor.user.id, change);
    } else {
      // Members of the child stop being members of the parent (and above): keep every collection owned.
      await keepingOwners(trx, await collectionsOwnedThrough(trx, [parentId]), change);
    }
    await actor.audit(
      {
        action: nested ? 'userGroup.nest' : 'userGroup.unnest',
        target: { type: 'userGroup', id: parentId, name: parent.name },
        before: { child: { id: child.id, name: child.name }, nested: !nested },
        after: { child: { id: child.id, name: child.name }, nested },
      },
      trx,
    );
  });
  return (await childrenOf(actor.db, parentId)).map(presentSummary);
}

export async function candidatesFor(db: Database, parentId: number, search: string, limit: number) {
  await groupOr404(db, parentId);
  const [{ graph }, groups] = await Promise.all([groupGraph(db), searchGroupRefs(db, search)]);
  return nestingCandidates(graph, parentId, groups).slice(0, limit);
}

export async function hierarchy(db: Database, id: number) {
  const group = await groupOr404(db, id);
  const { graph, names } = await groupGraph(db);
  return {
    group: { id: group.id, name: group.name },
    ancestors: referenceTrees(id, graph.parents, names),
    descendants: referenceTrees(id, graph.children, names),
  };
}
