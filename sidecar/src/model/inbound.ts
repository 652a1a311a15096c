/** Inbound sources, their secrets and the verification log, as both stores hold them. */
import type { InboundOutcome, InboundScheme, SecretOrigin, SourceStatus } from '../contracts/constants';

/**
 * One verification: when, for which source, and what the sender was told (the outcome, the
 * status and the code it got), with the event id when there was one. Never a payload, a header
 * or a secret.
 */
export interface InboundLogEntry {
	id: number;
	at: number;
	source: string;
	/** What the entry says the sender was told (INBOUND_OUTCOMES). */
	outcome: InboundOutcome;
	/** The verifier's answer to WordPress: 200 (the signature is good), the refusal's 4xx, or 503 past WordPress's deadline. */
	status: number;
	/** The code of the error the sender got (the refusal's, WordPress's, sidecar_unreachable); null for a 2xx, or while unconfirmed. */
	code: string | null;
	eventId: string | null;
	/** The HTTP status the sender got; null while unconfirmed (WordPress has not reported it). */
	answerStatus: number | null;
}

/** What WordPress reports it answered the sender of a verified delivery: 202 stored, 200 duplicate, 5xx not stored. */
export interface InboundAnswer {
	status: number;
	/** The error code it answered with (5xx), or null. */
	code: string | null;
}

/** The outcome WordPress's report makes of an unconfirmed entry. */
export function answeredOutcome( status: number ): InboundOutcome {
	return status >= 200 && status < 300 ? 'verified' : 'not_stored';
}

export interface InboundLogQuery {
	source?: string;
	outcome?: InboundOutcome;
	page: number;
	perPage: number;
}

/** Rows kept; older ones are pruned every LOG_PRUNE_EVERY writes, so a flood of forgeries cannot fill the disk. */
export const DEFAULT_LOG_KEEP = 10_000;
export const LOG_PRUNE_EVERY = 500;

export interface SourceSecret {
	secret: string;
	origin: SecretOrigin;
	createdAt: number;
	/** null for the current secret; a time for one still accepted during a rotation's grace period. */
	expiresAt: number | null;
}

export interface InboundSource {
	id: string;
	scheme: InboundScheme;
	status: SourceStatus;
	description: string;
	/** null = the sidecar's default (inboundToleranceSeconds). */
	toleranceSeconds: number | null;
	createdAt: number;
	updatedAt: number;
	/** Unexpired secrets, newest first. */
	secrets: SourceSecret[];
}

export interface NewSource {
	id: string;
	scheme: InboundScheme;
	status: SourceStatus;
	description: string;
	toleranceSeconds: number | null;
	secret: string;
	origin: SecretOrigin;
}

export type SourcePatch = Partial< Pick< NewSource, 'scheme' | 'status' | 'description' | 'toleranceSeconds' > >;
