import {
	type InboundAnswer,
	type InboundLogEntry,
	type InboundLogQuery,
	type InboundSource,
	type NewSource,
	type SourcePatch,
} from '../model/inbound';
import { type SecretOrigin } from '../contracts/constants';

/** A verification as the verify route records it (the log assigns the id; a verified one's answer comes later). */
export type NewInboundLogEntry = Omit< InboundLogEntry, 'id' >;

/**
 * The inbound side on either store (QueueStore.inbound): sources with their secrets and
 * rotations, and the verification log. On the shared store every instance reads the same
 * rows, so a source created, rotated or disabled through one instance is what the next
 * verification on any instance uses. Secrets go in and out of this interface in full (the
 * verifier needs them); the route masks them and nothing here logs them.
 */
export interface InboundStore {
	/** The source with its unexpired secrets, newest first. */
	getSource: ( id: string, now: number ) => Promise< InboundSource | undefined >;
	listSources: ( now: number ) => Promise< InboundSource[] >;
	/** The new source with its first secret, or undefined when the id is taken (nothing written then). */
	createSource: ( input: NewSource, now: number ) => Promise< InboundSource | undefined >;
	/** Changes the given fields; undefined if there is no such source. */
	updateSource: ( id: string, patch: SourcePatch, now: number ) => Promise< InboundSource | undefined >;
	/** Deletes the source and its secrets (the log keeps its rows: they name no secret); false if there was none. */
	deleteSource: ( id: string ) => Promise< boolean >;
	/**
	 * A new current secret; the previous one is still accepted until now + graceMs, and an older
	 * one's grace is shortened to that, never lengthened. Undefined if there is no such source.
	 */
	rotateSourceSecret: (
		id: string,
		secret: string,
		origin: SecretOrigin,
		graceMs: number,
		now: number
	) => Promise< InboundSource | undefined >;
	/** Adds a verification to the bounded log; its id, which WordPress reports its answer under. */
	recordVerification: ( entry: NewInboundLogEntry ) => Promise< number >;
	/**
	 * Keeps what WordPress answered the sender of an unconfirmed entry (verified or not_stored from
	 * then on); the entry as it is then, or undefined when there is none (any more).
	 */
	recordAnswer: ( id: number, answer: InboundAnswer ) => Promise< InboundLogEntry | undefined >;
	/** One page of the log, newest first, and the total matching the filter. */
	listVerifications: ( query: InboundLogQuery ) => Promise< { entries: InboundLogEntry[]; total: number } >;
}
