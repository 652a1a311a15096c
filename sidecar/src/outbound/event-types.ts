/** The events WordPress hands over; an endpoint subscribes to a subset (none listed = all). */
export const EVENT_TYPES = [ 'order.created', 'order.paid', 'order.refunded' ] as const;

export type EventType = ( typeof EVENT_TYPES )[ number ];

export function isEventType( value: unknown ): value is EventType {
	return typeof value === 'string' && ( EVENT_TYPES as readonly string[] ).includes( value );
}

/**
 * Event ids become the Standard Webhooks `webhook-id`, which is signed as
 * `${id}.${timestamp}.${body}`: a '.' in an id would make that ambiguous.
 */
export const EVENT_ID_PATTERN = /^[A-Za-z0-9_:-]{1,100}$/;
