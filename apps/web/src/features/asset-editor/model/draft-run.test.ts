import { describe, expect, it } from 'vitest';
import { emptyDraft, newParameter } from './asset-draft.ts';
import { runBlocker, runInputOf, runKey } from './draft-run.ts';
import { assetDraftOf, emptyPlayground, runnableDraft } from './playground.ts';

const web = () => ({ ...emptyDraft(7, 'webapi'), request: { ...emptyDraft(7).request, path: '/x/{id}' } });

describe('running a draft', () => {
  it('asks for another run when the source, the credential or a parameter changes', () => {
    const draft = { ...web(), credentialId: 31, parameters: [newParameter('id')] };
    const key = runKey(draft);
    expect(runKey({ ...draft })).toBe(key);
    expect(runKey({ ...draft, credentialId: 32 })).not.toBe(key);
    expect(runKey({ ...draft, request: { ...draft.request, path: '/y/{id}' } })).not.toBe(key);
    expect(runKey({ ...draft, parameters: [{ ...newParameter('id'), type: 'integer' }] })).not.toBe(key);
    // The SQL text is not part of a Web API run.
    expect(runKey({ ...draft, sql: 'select 1' })).toBe(key);
  });

  it('sends the kind of run the connection makes, with only the values typed', () => {
    expect(runInputOf({ ...emptyDraft(5), sql: 'select :a' }, 'col-1', { a: '1', b: '' })).toMatchObject({
      kind: 'sql',
      body: { collectionUid: 'col-1', connectionId: 5, sql: 'select :a', values: { a: '1' } },
    });
    expect(runInputOf({ ...web(), credentialId: null }, 'col-1', {})).toMatchObject({
      kind: 'webapi',
      body: { connectionId: 7, credentialId: null, request: { path: '/x/{id}' } },
    });
    expect(runBlocker(emptyDraft(null))).toBe('Choose a connection first.');
    expect(runBlocker(emptyDraft(5))).toBe('Write the SQL first.');
    expect(runInputOf(emptyDraft(5), 'col-1', {})).toBeNull();
  });

  it('turns a playground draft into an asset draft: the same source, its parameters required', () => {
    const play = { ...emptyPlayground(5, 'sql'), sql: 'select * from t where a = :a', timeoutMs: 5000 };
    play.parameters = { a: { type: 'integer', list: true } };
    expect(runnableDraft(play, ['a']).parameters).toMatchObject([
      { name: 'a', type: 'integer', list: true, required: false },
    ]);
    const asset = assetDraftOf(play, ['a']);
    expect(asset).toMatchObject({ kind: 'sql', connectionId: 5, sql: play.sql, timeoutMs: 5000, name: '' });
    expect(asset.parameters).toMatchObject([{ name: 'a', type: 'integer', list: true, required: true }]);
  });
});
