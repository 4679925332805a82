import { describe, expect, it } from 'vitest';
import { fieldLabel, isShownInline, liveErrors, validationLines, valuesWhenRefused } from './field-errors.ts';

describe('field labels', () => {
  it.each([
    ['minTotal', 'Min total'],
    ['querystring.uid', 'UID'],
    ['body.name', 'Name'],
    ['parameters.0.name', 'Parameters 1 › Name'],
    ['baseUrl', 'Base URL'],
    ['connection_id', 'Connection ID'],
  ])('words %s as %s', (path, label) => {
    expect(fieldLabel(path)).toBe(label);
  });

  it('prefers a label the form gives', () => {
    expect(fieldLabel('body.minTotal', { minTotal: 'Minimum total' })).toBe('Minimum total');
  });
});

describe('fields shown inline', () => {
  it('covers the field, the fields inside it, and its request location', () => {
    expect(isShownInline('parameters.2.name', ['parameters'])).toBe(true);
    expect(isShownInline('body.name', ['name'])).toBe(true);
    expect(isShownInline('nameKey', ['name'])).toBe(false);
  });

  it('leaves them out of the toast lines', () => {
    expect(validationLines({ name: ['Name is required'], port: ['Too big'] }, ['name'])).toEqual(['Port: Too big']);
  });
});

describe('live field errors', () => {
  const errors = { name: ['Name is required'], host: ['Host is required'] };

  it('keep a message while its field holds the refused value, and drop it as the field changes', () => {
    const refused = valuesWhenRefused(errors, { name: '', host: '' });
    expect(liveErrors(errors, refused, { name: '', host: '' })).toEqual(errors);
    expect(liveErrors(errors, refused, { name: 'Shop', host: '' })).toEqual({ host: ['Host is required'] });
    expect(liveErrors(errors, refused, { name: '', host: '' })).toEqual(errors);
  });

  it('compare lists and objects by value', () => {
    const listErrors = { country: ['Invalid option'] };
    const refused = valuesWhenRefused(listErrors, { country: ['XX'] });
    expect(liveErrors(listErrors, refused, { country: ['XX'] })).toEqual(listErrors);
    expect(liveErrors(listErrors, refused, { country: ['DE'] })).toEqual({});
  });
});
