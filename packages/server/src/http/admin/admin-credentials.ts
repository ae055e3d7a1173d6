// The one administrator credential of the admin API, checked as HTTP Basic credentials in constant time.
import { safeEqual, type ClientRepository } from '@edfi-api/framework';

export interface AdminCredentials {
  readonly key: string;
  readonly secret: string;
}

export function adminClientRepository(admin: AdminCredentials): ClientRepository {
  return {
    validate(key, secret) {
      // Both comparisons always run, so timing reveals neither which half was wrong nor how much of it.
      const keyMatches = safeEqual(key, admin.key);
      const secretMatches = safeEqual(secret, admin.secret);
      return keyMatches && secretMatches;
    },
  };
}
