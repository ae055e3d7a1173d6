import { describe, expect, it } from 'vitest';
import { OAuthError, OAuthToken } from '../../src/auth/oauth-response.js';
import { ApiResponse, json } from '../../src/http/api-response.js';

const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };

describe('OAuthToken', () => {
  it('is an ApiResponse with the token body, status 200 and no-store headers', () => {
    const response = new OAuthToken({ access_token: 'abc', token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    expect(response).toBeInstanceOf(ApiResponse);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ access_token: 'abc', token_type: 'Bearer', expires_in: 3600, scope: 'read' });
    expect(response.headers).toEqual(NO_STORE);
  });

  it('keeps extra fields and an explicit status', () => {
    const response = new OAuthToken({ access_token: 'abc', token_type: 'Bearer', refresh_token: 'r', id: 7 }, 201);
    expect(response.status).toBe(201);
    expect(response.body.refresh_token).toBe('r');
    expect(response.body['id']).toBe(7);
  });
});

describe('OAuthError', () => {
  it('defaults to 400 with only the error code', () => {
    const response = new OAuthError('invalid_grant');
    expect(response).toBeInstanceOf(ApiResponse);
    expect(response.status).toBe(400);
    expect(response.body).toStrictEqual({ error: 'invalid_grant' });
    expect(response.headers).toEqual(NO_STORE);
  });

  it('adds the description, status and uri when given', () => {
    const response = new OAuthError('invalid_client', 'Unknown client.', 401, 'https://example.test/errors');
    expect(response.status).toBe(401);
    expect(response.body).toStrictEqual({
      error: 'invalid_client',
      error_description: 'Unknown client.',
      error_uri: 'https://example.test/errors',
    });
  });

  it('serialises without undefined members', () => {
    expect(JSON.stringify(new OAuthError('invalid_request', undefined, 400, 'u').body)).toBe(
      '{"error":"invalid_request","error_uri":"u"}',
    );
  });
});

describe('json()', () => {
  it('defaults to status 200 and no extra headers', () => {
    const response = json({ ok: true });
    expect(response).toBeInstanceOf(ApiResponse);
    expect(response.body).toEqual({ ok: true });
    expect(response.status).toBe(200);
    expect(response.headers).toEqual({});
  });

  it('carries the given status and headers', () => {
    const response = json([1, 2], { status: 201, headers: { location: '/items/1' } });
    expect(response.status).toBe(201);
    expect(response.headers).toEqual({ location: '/items/1' });
  });
});
