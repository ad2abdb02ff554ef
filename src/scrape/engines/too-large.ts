/** The one error for a response past MAX_RESPONSE_BYTES, whichever engine fetched or read it. */
import { ApiError } from '../../errors.js';

export const responseTooLarge = (limit: number): ApiError =>
  new ApiError('SCRAPE_SITE_ERROR', { message: `Response is larger than the ${limit}-byte limit` });
