// Public surface of data authorization: the `authorize` seam over claim sets and strategies.
export { createAuthorizer, type AuthorizerOptions } from './authorizer.js';
export { UnknownStrategyError } from './strategies.js';
