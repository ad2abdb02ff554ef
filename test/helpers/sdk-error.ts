/** One entry of a 400's `details`: the field and what is wrong with it. */
export interface FieldIssue {
  code?: string;
  path: (string | number)[];
  message: string;
}

/** The error an official-SDK call threw: HTTP status, catalog code and details as the server sent them. */
export interface SdkError {
  status?: number;
  code?: string;
  message: string;
  details?: any; // tests reach into details of many shapes
}

/** Awaits an SDK call that must fail and returns what it threw. */
export async function sdkError(p: Promise<unknown>): Promise<SdkError> {
  try {
    await p;
  } catch (e) {
    return e as SdkError;
  }
  throw new Error('expected the SDK call to throw');
}
