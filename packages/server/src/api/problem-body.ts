// The problem-details body of an ApiProblem (contract §6.1) in the ODS's property order: detail, type, title, status,
// correlationId, validationErrors, errors. Shared by the HTTP responses and the direct loader's failure reports.
import type { ApiProblem } from './problems.js';

export function problemBody(problem: ApiProblem, correlationId: string): string {
  return JSON.stringify({
    detail: problem.detail,
    type: problem.problem.type,
    title: problem.problem.title,
    status: problem.problem.status,
    correlationId,
    validationErrors: problem.validationErrors,
    errors: problem.errors,
  });
}
