import { dataRoles, roleRank, type DataRole } from '@datalab/contract/api/data-roles';

// A personal access token's roles: one per collection, each at most the creator's own effective role there (the
// server refuses more, and narrows again at every use).

export interface GrantableCollection {
  uid: string;
  name: string;
  /** The user's own effective role: the most a token may carry. */
  role: DataRole;
}

/** The roles a token may carry on a collection where its owner holds `own`, weakest first. */
export const rolesUpTo = (own: DataRole): DataRole[] =>
  [...dataRoles].reverse().filter((role) => roleRank[role] <= roleRank[own]);

/** Chosen roles by collection uid (a collection left out has none). */
export type RoleChoice = Record<string, DataRole>;

export const chosenRoles = (choice: RoleChoice) =>
  Object.entries(choice).map(([collectionUid, role]) => ({ collectionUid, role }));
