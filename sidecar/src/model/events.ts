/** Events as WordPress hands them over and as both stores keep them. */
import { TEST_EVENT_TYPE, type DeliveredEventType } from '../contracts/constants';

export interface NewEvent {
	id: string;
	type: DeliveredEventType;
	timestamp: string;
	orderingKey: string | null;
	data: unknown;
	/**
	 * A test event's one endpoint: it is delivered there only, whatever the endpoints subscribe to.
	 * Absent for WordPress's events, which go to every active endpoint subscribed to their type.
	 */
	to?: string;
}

export interface StoredEvent {
	id: string;
	type: DeliveredEventType;
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

/**
 * Whether an event stored now gets a delivery to an endpoint (both stores' fan-out): a test event
 * to its one endpoint only; any other to every endpoint subscribed to its type ([] = all).
 */
export function receives(
	endpoint: { id: string; types: ReadonlySet< string > },
	event: Pick< NewEvent, 'type' | 'to' >
): boolean {
	if ( event.to !== undefined || event.type === TEST_EVENT_TYPE ) {
		return endpoint.id === event.to;
	}
	return endpoint.types.size === 0 || endpoint.types.has( event.type );
}

/**
 * The SQL condition that keeps test events (alias `e` for the events table) out of what is sent
 * to endpoints later (redelivery on enable, range replays): a test event was meant for one
 * endpoint, once.
 */
export const NOT_A_TEST_EVENT_SQL = `e.type <> '${ TEST_EVENT_TYPE }'`;

/** The body receivers get: Standard Webhooks' recommended {type, timestamp, data} envelope. */
export function eventPayload( event: Pick< NewEvent, 'type' | 'timestamp' | 'data' > ): string {
	return JSON.stringify( { type: event.type, timestamp: event.timestamp, data: event.data } );
}
