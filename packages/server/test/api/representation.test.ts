// Representations: id first, the stored members as they are, then _etag and _lastModifiedDate.
import { describe, expect, it } from 'vitest';
import { renderDocument, renderDocuments } from '../../src/api/representation.js';
import type { StoredDocument } from '../../src/store/store.js';

const stored: StoredDocument = {
  id: '0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9e',
  bodyJson: '{"schoolReference":{"schoolId":255901001,"link":{"rel":"School","href":"/ed-fi/schools/7b"}},"grades":[]}',
  etag: '5250093105232954695',
  lastModifiedDate: '2024-01-13T02:11:20.5566791Z',
  changeVersion: 7,
  docId: 7,
};

describe('representation', () => {
  it('puts id first and the server fields last, keeping the stored text', () => {
    const text = renderDocument(stored);
    expect(text).toBe(
      '{"id":"0e4b1b5f2c4f4f0a8a7d2d4f6c1b3a9e",' +
        '"schoolReference":{"schoolId":255901001,"link":{"rel":"School","href":"/ed-fi/schools/7b"}},"grades":[],' +
        '"_etag":"5250093105232954695","_lastModifiedDate":"2024-01-13T02:11:20.5566791Z"}',
    );
    expect(Object.keys(JSON.parse(text) as object)).toEqual([
      'id',
      'schoolReference',
      'grades',
      '_etag',
      '_lastModifiedDate',
    ]);
  });

  it('renders an empty stored body and lists', () => {
    expect(JSON.parse(renderDocument({ ...stored, bodyJson: '{}' }))).toEqual({
      id: stored.id,
      _etag: stored.etag,
      _lastModifiedDate: stored.lastModifiedDate,
    });
    expect(renderDocuments([])).toBe('[]');
    expect(JSON.parse(renderDocuments([stored, stored]))).toHaveLength(2);
  });
});
