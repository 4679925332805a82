import { z } from 'zod';
import { defineCall } from '../call.ts';
import { isoDateTime } from '../dates.ts';
import { messages } from '../messages.ts';
import { pageOf, pageQuery } from '../paging.ts';
import { nameText } from '../text.ts';
import { collectionRef, dataRole, userRef } from './data-roles.ts';

// Data Lab tokens (product §14, product §7 "Tokens"): how programs call the calling layer (/data/v1) and read the
// management API without a person signing in.
//
// - A personal access token (kind 'personal', secret `dlp_…`) belongs to a user and carries data roles per
//   collection. At every use its power on a collection is the weaker of its own role there and its owner's current
//   effective role, so it can only narrow what the owner may do.
// - A collection token (kind 'collection', secret `dlc_…`) belongs to one collection, is made by an Owner of it and
//   reads (Reader) that collection only.
//
// The secret is in the reply that creates the token and nowhere else: the server keeps a hash. Send it as
// `Authorization: Bearer <secret>`; a token in a URL is refused (400). Tokens never carry a system permission, and
// the calls that change tokens, roles, users, groups, memberships or collections refuse token authentication (403).
//
// Secret format (for secret scanners; docs/tokens.md): a prefix, 40 base62 characters (the first 12 a public lookup
// id, all of them random: 238 bits) and a 6-character base62 CRC-32 of prefix and body, so a typo is refused without
// a lookup. Every secret matches the regular expression
//
//   \bdl[pc]_[0-9A-Za-z]{46}\b
//
// (`TOKEN_PATTERN_SOURCE`): `dlp_` or `dlc_`, then 46 base62 characters. To tell a real secret from a look-alike
// without asking the server, check the last 6 characters: the CRC-32 (IEEE, as zlib computes it) of the first 44
// characters (prefix included), written in base62 with the alphabet 0-9, A-Z, a-z, most significant digit first,
// left-padded with '0'. A found secret is reported with `POST /api/Token/Leaked` (no sign-in), which revokes it.

export const tokenKinds = ['personal', 'collection'] as const;
export const tokenKind = z.enum(tokenKinds);
export type TokenKind = z.infer<typeof tokenKind>;

export const tokenPrefixes: Record<TokenKind, string> = { personal: 'dlp_', collection: 'dlc_' };

/** Everything after the prefix: 40 random base62 characters, then the 6-character checksum. */
export const TOKEN_BODY_LENGTH = 40;
export const TOKEN_CHECKSUM_LENGTH = 6;
/** A regular expression a secret scanner can use to find Data Lab tokens in text. */
export const TOKEN_PATTERN_SOURCE = String.raw`\bdl[pc]_[0-9A-Za-z]{46}\b`;

/**
 * Why a token was revoked: through `PUT /api/Token/{id}/Revoke` ('revoked', `revokedBy` says who), with its collection
 * ('collectionDeleted') or because its secret was reported with `POST /api/Token/Leaked` ('leaked', by nobody).
 */
export const tokenRevokedReasons = ['revoked', 'collectionDeleted', 'leaked'] as const;
export const tokenRevokedReason = z.enum(tokenRevokedReasons);
export type TokenRevokedReason = z.infer<typeof tokenRevokedReason>;

/** Computed at each read: Revoked wins over Expired. */
export const tokenStatuses = ['Active', 'Expired', 'Revoked'] as const;
export const tokenStatus = z.enum(tokenStatuses);
export type TokenStatus = z.infer<typeof tokenStatus>;

export const TOKEN_NAME_MAX = 100;
/** The most collections one personal access token may carry a role on. */
export const TOKEN_ROLES_MAX = 100;

/** A token's role on one collection. */
export const tokenRole = z.object({ collection: collectionRef, role: dataRole });

export const token = z.object({
  id: z.number().int(),
  kind: tokenKind,
  name: z.string(),
  /** The secret's prefix and first characters, to recognise a token; never enough to use it. */
  hint: z.string(),
  /** The user a personal access token belongs to; null for a collection token. */
  owner: userRef.nullable(),
  /** The collection a collection token belongs to; null for a personal one, and once that collection is deleted. */
  collection: collectionRef.nullable(),
  /** Personal: its roles; collection: Reader on its collection. */
  roles: z.array(tokenRole),
  createdBy: userRef.nullable(),
  createdAt: isoDateTime,
  /** Null only when TOKEN_ALLOW_NO_EXPIRY lets a token never expire. */
  expiresAt: isoDateTime.nullable(),
  revokedAt: isoDateTime.nullable(),
  revokedBy: userRef.nullable(),
  /** Why it was revoked; null while it is not, and for tokens revoked before reasons were recorded. */
  revokedReason: tokenRevokedReason.nullable().default(null),
  /** Recorded at most once a minute per token and server instance. */
  lastUsedAt: isoDateTime.nullable(),
  lastUsedAddress: z.string().nullable(),
  status: tokenStatus,
});
export type Token = z.infer<typeof token>;

/** The reply to a creation: the token and, this once, its secret. */
export const createdToken = token.extend({ secret: z.string() });
export type CreatedToken = z.infer<typeof createdToken>;

/** One role of a personal access token, as requested. */
export const tokenRoleInput = z.object({ collectionUid: z.string().trim().min(1), role: dataRole });
const roleList = z.array(tokenRoleInput).min(1).max(TOKEN_ROLES_MAX);

/**
 * `expiresOn` is a UTC date (YYYY-MM-DD, what the portal sends for a Date): the token stops working at 00:00 UTC
 * that day. Absent: TOKEN_DEFAULT_DAYS from today; null: never (only where TOKEN_ALLOW_NO_EXPIRY is on). It must be
 * after today and at most TOKEN_MAX_DAYS away.
 */
export const createToken = z
  .object({
    kind: tokenKind,
    name: nameText(TOKEN_NAME_MAX),
    expiresOn: z.iso.date().nullable().optional(),
    /** Personal access tokens: at least one role, each at most the creator's own effective role there. */
    roles: roleList.optional(),
    /** Collection tokens: the collection (the creator must be its Owner). */
    collectionUid: z.string().trim().min(1).optional(),
  })
  .superRefine((body, context) => {
    if (body.kind === 'personal') {
      if (!body.roles) context.addIssue({ code: 'custom', path: ['roles'], message: messages.atLeastOne('Role') });
      if (body.collectionUid !== undefined)
        context.addIssue({
          code: 'custom',
          path: ['collectionUid'],
          message: 'A personal access token names its collections in roles',
        });
    } else {
      if (body.collectionUid === undefined)
        context.addIssue({ code: 'custom', path: ['collectionUid'], message: messages.required('Collection uid') });
      if (body.roles !== undefined)
        context.addIssue({ code: 'custom', path: ['roles'], message: 'A collection token is always Reader' });
    }
  });
export type CreateToken = z.input<typeof createToken>;

/** A token's roles with what they are worth now: the weaker of its role and its owner's current effective role. */
export const tokenDataRoles = z.object({
  token: z.object({ id: z.number().int(), name: z.string(), kind: tokenKind, status: tokenStatus }),
  roles: z.array(tokenRole.extend({ effectiveRole: dataRole.nullable() })),
});
export type TokenDataRoles = z.infer<typeof tokenDataRoles>;

const idParam = z.object({ id: z.coerce.number().int().positive() });

export const getTokensByCollection = defineCall({
  method: 'GET',
  path: '/api/Token/GetByCollection',
  tag: 'Token',
  summary: "A collection's tokens, newest first, revoked and expired ones included (its Owners; canManageUsers)",
  query: z.object({ collectionUid: z.string().trim().min(1) }),
  response: z.array(token),
});

export const getAllTokens = defineCall({
  method: 'GET',
  path: '/api/Token/GetAll',
  tag: 'Token',
  summary:
    'Every token the caller may manage, newest first: their personal access tokens and the tokens of the ' +
    'collections they own (every token for canManageUsers; through a personal access token, itself and the ' +
    'tokens of the collections it is Owner of)',
  query: pageQuery.extend({ kind: tokenKind.optional(), status: tokenStatus.optional() }),
  response: pageOf(token),
});

export const getAllPersonalAccessTokens = defineCall({
  method: 'GET',
  path: '/api/Token/GetAllPersonalAccessTokens',
  tag: 'Token',
  summary: "The caller's own personal access tokens, newest first (through a personal access token, itself)",
  response: z.array(token),
});

export const getToken = defineCall({
  method: 'GET',
  path: '/api/Token',
  tag: 'Token',
  summary: 'One token, without its secret (its owner, the Owners of its collection, canManageUsers)',
  query: idParam,
  response: token,
});

export const postToken = defineCall({
  method: 'POST',
  path: '/api/Token',
  tag: 'Token',
  summary:
    'Create a personal access token (roles at most your own) or a collection token (Owner); the secret is in ' +
    'this reply only. Not with a Data Lab token',
  body: createToken,
  response: createdToken,
  status: 201,
});

export const getTokenDataRoles = defineCall({
  method: 'GET',
  path: '/api/Token/:id/UserDataRoles',
  tag: 'Token',
  summary: "A token's data roles, each with what it is worth now (the owner's current role narrows it)",
  params: idParam,
  response: tokenDataRoles,
});

export const putTokenDataRoles = defineCall({
  method: 'PUT',
  path: '/api/Token/:id/UserDataRoles',
  tag: 'Token',
  summary:
    "Replace a personal access token's data roles, each at most your own (its owner only). Not with a Data Lab token",
  params: idParam,
  body: z.object({ roles: roleList }),
  response: tokenDataRoles,
});

export const revokeToken = defineCall({
  method: 'PUT',
  path: '/api/Token/:id/Revoke',
  tag: 'Token',
  summary:
    'Revoke a token at once, on every server (its owner, the Owners of its collection, canManageUsers); ' +
    'revoking twice is harmless. Not with a Data Lab token',
  params: idParam,
  response: token,
});

/** The most entries one leak report may carry, and the longest entry (a secret with a little text around it). */
export const LEAK_REPORT_ENTRIES_MAX = 20;
export const LEAK_REPORT_ENTRY_MAX_LENGTH = 200;

/**
 * A leak report: texts holding leaked secrets (each entry is searched for anything of the secret format, so a pasted
 * line such as `DATALAB_TOKEN=dlp_…` works as well as the bare secret).
 */
export const leakReport = z.object({
  secrets: z
    .array(z.string().trim().min(1).max(LEAK_REPORT_ENTRY_MAX_LENGTH))
    .min(1, messages.atLeastOne('Secret'))
    .max(LEAK_REPORT_ENTRIES_MAX),
});
export type LeakReport = z.input<typeof leakReport>;

/** The one reply to every accepted report, whatever it held: it never says whether a secret was a live token. */
export const LEAK_REPORT_RECEIVED =
  'Thank you. Every active Data Lab token among these secrets is revoked, and its owner can see that it was reported.';
export const leakReportReply = z.object({ message: z.literal(LEAK_REPORT_RECEIVED) });

export const reportLeakedTokens = defineCall({
  method: 'POST',
  path: '/api/Token/Leaked',
  tag: 'Token',
  summary:
    'Report leaked secrets (no sign-in; a few reports per minute per address): every one that is an active Data ' +
    'Lab token is revoked at once. The reply is the same whatever the secrets were',
  body: leakReport,
  response: leakReportReply,
  status: 202,
});
