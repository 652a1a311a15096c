/** Webhook endpoints as both stores hold them. */
import { randomBytes } from 'crypto';
import type { DisabledBy, EndpointStatus, EventType } from '../contracts/constants';

export interface EndpointSecret {
	secret: string;
	createdAt: number;
	/** null for the current secret; a time for one kept during a rotation's grace period. */
	expiresAt: number | null;
}

export interface Endpoint {
	id: string;
	url: string;
	description: string;
	/** Empty = every event type. */
	eventTypes: EventType[];
	status: EndpointStatus;
	disabledReason: string | null;
	disabledAt: number | null;
	disabledBy: DisabledBy | null;
	failingSince: number | null;
	maxConcurrency: number;
	wcCompatSignature: boolean;
	/** Whether a recovery sends again what ran out of attempts during the failure (model/recovery.ts). */
	resendFailedOnRecovery: boolean;
	createdAt: number;
	updatedAt: number;
	/** Unexpired secrets, newest first (the order signatures are sent in). */
	secrets: EndpointSecret[];
}

export interface NewEndpoint {
	url: string;
	description: string;
	eventTypes: EventType[];
	maxConcurrency: number;
	wcCompatSignature: boolean;
	/** On unless false (the default of the setting). */
	resendFailedOnRecovery?: boolean;
	secret: string;
}

export type EndpointPatch = Partial< Omit< NewEndpoint, 'secret' > >;

export interface EnableResult {
	enabled: boolean;
	/** Whether what the endpoint missed was queued again. */
	redelivered: boolean;
	/** Failed or cancelled deliveries queued again. */
	requeued: number;
	/** Deliveries created for events that arrived while it was disabled. */
	missed: number;
	/** Without redelivery: how many of the above were left out. */
	skipped: number;
}

export function newEndpointId(): string {
	return 'ep_' + randomBytes( 12 ).toString( 'hex' );
}
