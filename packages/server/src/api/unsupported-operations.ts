// Method and route combinations the ODS answers with an explanatory 405 (contract §3.4–§3.6).
import { ApiProblem } from './problems.js';

function methodNotAllowed(explanation: string): ApiProblem {
  return new ApiProblem('methodNotAllowed', { errors: [explanation] });
}

/** PUT {resource} */
export function collectionReplacement(): ApiProblem {
  return methodNotAllowed(
    'Resource collections cannot be replaced. To "upsert" an item in the collection, use POST. ' +
      'To update a specific item, use PUT and include the "id" in the route.',
  );
}

/** DELETE {resource} */
export function collectionDeletion(): ApiProblem {
  return methodNotAllowed(
    'Resource collections cannot be deleted. To delete a specific item, use DELETE and include the "id" in the route.',
  );
}

/** POST {resource}/{id} */
export function itemPost(): ApiProblem {
  return methodNotAllowed(
    'Resource items can only be updated using PUT. To "upsert" an item in the resource collection using POST, ' +
      'remove the "id" from the route.',
  );
}
