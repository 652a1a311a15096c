/** What the sidecar's answers to WordPress's personal data exporter and eraser are made of, on both stores. */
import type { PersonalFields } from '../privacy/personal-data';

/** One record of a customer's data the sidecar holds, as the export lists it. */
export interface PrivacyRecord {
	kind: 'event' | 'attempt';
	/** The event's id, or the attempt's id (as a string). */
	id: string;
	/** The event's type (also given for an attempt: the type of the event it delivered). */
	type?: string;
	/** The attempt's event. */
	event_id?: string;
	/** When the event was received, or the attempt made (ISO 8601). */
	received_at: string;
	fields: PersonalFields & { response_excerpt?: string };
}

export interface EraseResult {
	redacted_events: number;
	redacted_attempts: number;
}
