/** A one-line message for any thrown value; never a stack trace for the user. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
