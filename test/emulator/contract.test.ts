// Contract: every in-scope endpoint answers the status and body the OpenAPI document gives, and
// refuses a request body that violates the document's request schema.
import { describe, expect, it } from 'vitest';
import { createFixtures, methodOf, OPERATIONS } from './fixtures.js';
import { useTestEmulator } from '../support/emulator.js';
import { DEMO_SEED_FILE } from '../support/paths.js';
import { inScopeOperations, requestValidator, responseValidator, successStatus } from './openapi.js';

const harness = useTestEmulator({ seedFile: DEMO_SEED_FILE });

describe('contract with openapi-v2.json', () => {
  it('covers every in-scope operation of the document', () => {
    expect(OPERATIONS.map((operation) => operation.op).sort()).toEqual(inScopeOperations());
  });

  for (const operation of OPERATIONS) {
    it(`${operation.op}: answers the documented status and a body valid against the response schema`, async () => {
      const fx = await createFixtures(harness);
      const body = operation.body?.(fx);
      if (body !== undefined) {
        const validRequest = requestValidator(operation.op);
        expect(validRequest?.(body), JSON.stringify(validRequest?.errors)).toBe(true);
      }
      const answer = await harness.call(methodOf(operation), `/v2${operation.path(fx)}`, { body });
      expect(answer.status, answer.text).toBe(operation.status ?? successStatus(operation.op));
      const validate = responseValidator(operation.op);
      if (validate) {
        expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
        expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      } else {
        expect(answer.text).toBe('');
      }
    });

    const invalidBody = operation.invalidBody;
    if (invalidBody) {
      it(`${operation.op}: refuses a body that violates the request schema with 400 {code, message}`, async () => {
        const fx = await createFixtures(harness);
        const body = invalidBody(fx);
        expect(requestValidator(operation.op)?.(body)).toBe(false);
        const answer = await harness.call(methodOf(operation), `/v2${operation.path(fx)}`, { body });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body).toEqual({ code: 400, message: expect.stringMatching(/field "|request body/) });
      });
    }
  }

  it('refuses a missing body and malformed JSON on every operation that takes a body', async () => {
    const fx = await createFixtures(harness);
    for (const operation of OPERATIONS.filter((candidate) => candidate.body)) {
      const path = `/v2${operation.path(fx)}`;
      const missing = await harness.call(methodOf(operation), path);
      expect(missing.status, `${operation.op} without body`).toBe(400);
      const malformed = await harness.call(methodOf(operation), path, { rawBody: '{"name": ' });
      expect(malformed.status, `${operation.op} with malformed JSON`).toBe(400);
      expect((malformed.body as { message: string }).message).toMatch(/not valid JSON/);
    }
  });
});
