import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callPath } from './call.ts';
import { isIsoDateTime, isoDateTime, replaceDates, reviveDates, toUtcDate } from './dates.ts';
import { messages } from './messages.ts';
import { paths } from './paths.ts';

describe('message templates (product §5)', () => {
  it('fill each template exactly', () => {
    expect(messages.required('Name')).toBe('Name is required');
    expect(messages.doesNotExist('Collection', 'abc')).toBe('Collection with id abc does not exist');
    expect(messages.alreadyExists('User group', 7)).toBe('User group with id 7 already exists');
    expect(messages.noneFound()).toBe('No Data found');
    expect(messages.noneFound('Collection')).toBe('No Collection found');
    expect(messages.atLeastOne('Owner')).toBe('At least one Owner is required');
    expect(messages.unsupportedType('xml')).toBe('Unsupported type xml');
    expect(messages.allOrNone('Min', 'Max')).toBe('Min and Max must be all present or all not present');
  });
});

describe('dates (product §3)', () => {
  it('decode ISO date-times into Dates and encode them back, in the contract', () => {
    const decoded = z.decode(isoDateTime, '2026-11-20T12:30:00+02:00');
    expect(decoded).toBeInstanceOf(Date);
    expect(decoded.toISOString()).toBe('2026-11-20T10:30:00.000Z');
    expect(z.encode(isoDateTime, new Date('2026-11-20T10:30:00.000Z'))).toBe('2026-11-20T10:30:00.000Z');
    expect(z.safeDecode(isoDateTime, '2026-11-20').success).toBe(false);
    expect(z.safeDecode(isoDateTime, 'yesterday').success).toBe(false);
    expect(z.decode(isoDateTime.nullable(), null)).toBeNull();
  });

  it('revives ISO date-times and nothing else', () => {
    const parsed = JSON.parse(
      '{"at":"2026-11-20T10:30:00.000Z","day":"2026-11-20","name":"2026-11-20T10:30Z is a time"}',
      reviveDates,
    ) as Record<string, unknown>;
    expect(parsed['at']).toBeInstanceOf(Date);
    expect((parsed['at'] as Date).toISOString()).toBe('2026-11-20T10:30:00.000Z');
    expect(parsed['day']).toBe('2026-11-20');
    expect(parsed['name']).toBe('2026-11-20T10:30Z is a time');
    expect(isIsoDateTime('2026-13-45T99:99:00Z')).toBe(false);
  });

  it('reduces outgoing dates to their UTC date', () => {
    expect(toUtcDate(new Date('2026-11-20T23:30:00-05:00'))).toBe('2026-11-21');
    expect(JSON.stringify({ from: new Date('2026-01-02T03:04:05Z'), n: 1 }, replaceDates)).toBe(
      '{"from":"2026-01-02","n":1}',
    );
  });
});

describe('paths', () => {
  it('fill call placeholders, encoded', () => {
    expect(callPath('/api/DataSource/GetByUid/:uid', { uid: 'a b/c' })).toBe('/api/DataSource/GetByUid/a%20b%2Fc');
    expect(() => callPath('/api/UserGroup/:id/User/:userId', { id: 1 })).toThrow(/userId/);
  });

  it('build SPA routes as product §2 writes them', () => {
    expect(paths.collection('x1', 'access')).toBe('/collection/x1/access');
    expect(paths.collectionEditAsset('x1')).toBe('/collection/x1/edit/data-asset');
    expect(paths.userGroup(4, 'members')).toBe('/management/user-group/4/members');
    expect(paths.policy('cookie-policy')).toBe('/policy/cookie-policy');
  });
});
