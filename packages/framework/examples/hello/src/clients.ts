// The example's client repository: one demo client, compared in constant time.

import { type ClientRepository, Unauthorized, safeEqual } from '@edfi-api/framework';
import { demoClient } from './config.js';

export const clients: ClientRepository = {
  validate(clientId, clientSecret) {
    if (!safeEqual(clientId, demoClient.id) || !safeEqual(clientSecret, demoClient.secret)) {
      throw new Unauthorized('Invalid client credentials.');
    }
    return { clientId };
  },
  validateApiKey(apiKey) {
    if (!safeEqual(apiKey, demoClient.apiKey)) throw new Unauthorized('Invalid API key.');
    return { clientId: demoClient.id };
  },
};
