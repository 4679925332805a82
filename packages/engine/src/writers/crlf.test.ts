import { describe, expect, it } from 'vitest';
import { CrlfRecordEnds } from './crlf.ts';

describe('CrlfRecordEnds', () => {
  it('ends records with CRLF but keeps line breaks inside quoted fields, across chunk boundaries', () => {
    const records = new CrlfRecordEnds();
    const parts = ['id,note\n1,"a\nb', '"\n2,"say ""hi""', '\n"\n3,x\n'].map((text) => Buffer.from(text));
    const out = Buffer.concat(parts.map((part) => records.convert(part))).toString();
    expect(out).toBe('id,note\r\n1,"a\nb"\r\n2,"say ""hi""\n"\r\n3,x\r\n');
  });
});
