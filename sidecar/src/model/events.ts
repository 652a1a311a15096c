/** Events as WordPress hands them over and as both stores keep them. */
import type { EventType } from '../contracts/constants';

export interface NewEvent {
	id: string;
	type: EventType;
	timestamp: string;
	orderingKey: string | null;
	data: unknown;
}

export interface StoredEvent {
	id: string;
	type: EventType;
	timestamp: string;
	orderingKey: string | null;
	/** The exact bytes every attempt sends (and signs). */
	payload: string;
	receivedAt: number;
	/** When the payload retention emptied the payload; null while whole. */
	payloadClearedAt: number | null;
	/** When an erasure request replaced personal data in it; null if never. */
	redactedAt: number | null;
}

export interface InsertResult {
	accepted: string[];
	duplicates: string[];
	/** Endpoints that got new deliveries, to wake the dispatcher for. */
	endpointIds: string[];
}

/** The body receivers get: Standard Webhooks' recommended {type, timestamp, data} envelope. */
export function eventPayload( event: Pick< NewEvent, 'type' | 'timestamp' | 'data' > ): string {
	return JSON.stringify( { type: event.type, timestamp: event.timestamp, data: event.data } );
}
