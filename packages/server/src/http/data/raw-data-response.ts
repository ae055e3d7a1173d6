// Data operations render their own responses (JSON text put together around stored bodies, or an empty body with
// 200/201); the framework writes them as they are.
import { raw, type RawResponse } from '@edfi-api/framework';
import type { DataResponse } from '../../api/index.js';

export function asRawResponse(response: DataResponse): RawResponse {
  return raw(response.body, { status: response.status, headers: { ...response.headers } });
}

/** Completes a data handler with the operation's response. */
export async function send(response: Promise<DataResponse>): Promise<RawResponse> {
  return asRawResponse(await response);
}
