import type { Kysely } from 'kysely';

// Frozen. The reference a definition document names a secret by (`{ secret: shop.password }`): kept beside the
// sealed secret of a SQL connection and of a Web API credential, so an export names it as the document that set it
// did, and a later document naming the same reference needs no value. Null: the default reference is used.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').addColumn('secret_ref', 'text').execute();
  await db.schema.alterTable('web_api_credentials').addColumn('secret_ref', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('web_api_credentials').dropColumn('secret_ref').execute();
  await db.schema.alterTable('connections').dropColumn('secret_ref').execute();
}
