import type { JsonObject } from './json.js';

// An error that becomes an HTTP answer `{code, message}` (plus `details`, for the answers the
// OpenAPI document gives more fields: a dashboard's currentVersion); anything else thrown by a
// handler is a 500.
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: JsonObject = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const badRequest = (message: string): ApiError => new ApiError(400, message);
export const notFound = (message: string): ApiError => new ApiError(404, message);
export const conflict = (message: string): ApiError => new ApiError(409, message);
export const forbidden = (message: string): ApiError => new ApiError(403, message);
export const unauthorized = (message: string): ApiError => new ApiError(401, message);
