// Exact problem-details assertions: status, content type and the body byte for byte (property order included).
import type { InjectResponse } from '@edfi-api/framework';
import { expect } from 'vitest';

export const CORRELATION_ID = 'test-correlation-id';
export const WITH_CORRELATION = { 'correlation-id': CORRELATION_ID } as const;

export const CONTROLLER_PROBLEM = 'application/json; charset=utf-8';
export const MIDDLEWARE_PROBLEM = 'application/problem+json';

export interface ExpectedProblem {
  readonly detail: string;
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly validationErrors?: Record<string, string[]>;
  readonly errors?: string[];
}

/** The body must equal the problem with the test correlation id, in the contract's property order. */
export function expectProblem(
  response: InjectResponse,
  problem: ExpectedProblem,
  contentType: string = CONTROLLER_PROBLEM,
): void {
  const { detail, type, title, status, validationErrors, errors } = problem;
  const expected = { detail, type, title, status, correlationId: CORRELATION_ID, validationErrors, errors };
  expect({ status: response.status, contentType: response.headers['content-type'], body: response.body }).toEqual({
    status,
    contentType,
    body: JSON.stringify(expected),
  });
}
