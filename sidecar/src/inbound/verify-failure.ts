import type { VerifyFailureCode, VerifyResult } from './verify';

/** A refusal of one inbound webhook: the code callers act on and a message for people. */
export function fail( code: VerifyFailureCode, message: string ): VerifyResult {
	return { ok: false, code, message };
}
