/**
 * The sidecar API's answers as they travel (snake_case, ISO 8601 times). The sidecar's views
 * are typed with these and the WordPress admin page imports them (`import type`), so a shape
 * that changes on one side fails the type check of the other. Types only: nothing to bundle.
 */
import type {
	AttemptTrigger,
	DeliveryStatus,
	DisabledBy,
	EndpointStatus,
	EventType,
	InboundOutcome,
	InboundScheme,
	SecretOrigin,
	SourceStatus,
} from './constants';

export interface SecretInfoView {
	/** The first and last characters only. */
	masked: string;
	created_at: string | null;
	/** null for the current secret; a time for one kept during a rotation's grace period. */
	expires_at: string | null;
}

/** A failed attempt as the API, the admin page and the site owner's alert show it (status null: a network error). */
export interface AttemptErrorView {
	at: string;
	status: number | null;
	message: string;
}

/** An endpoint's last attempts of the last 24 h. */
export interface EndpointHealthView {
	recent_attempts: number;
	/** 0 to 1; null without recent attempts. */
	recent_success_rate: number | null;
	/** The newest failed attempt among them. */
	last_error: AttemptErrorView | null;
}

export interface EndpointView {
	id: string;
	url: string;
	description: string;
	/** Empty = every event type. */
	event_types: EventType[];
	status: EndpointStatus;
	disabled_reason: string | null;
	disabled_at: string | null;
	disabled_by: DisabledBy | null;
	failing_since: string | null;
	max_concurrency: number;
	wc_compat_signature: boolean;
	secrets: SecretInfoView[];
	created_at: string;
	updated_at: string;
	health: EndpointHealthView;
}

export interface EndpointListView {
	endpoints: EndpointView[];
}

/** Creation and rotation answers: the secret in full, this once. */
export type EndpointWithSecretView = EndpointView & { secret: string };

/** Enabling: how much of what the endpoint missed went out again, or was left out. */
export type EnabledEndpointView = EndpointView & { redelivered: boolean; requeued: number; skipped: number };

export interface DeletedView {
	deleted: true;
	id: string;
}

export interface DeliveryView {
	id: number;
	event_id: string;
	event_type: EventType;
	endpoint_id: string;
	status: DeliveryStatus;
	attempt_count: number;
	next_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	created_at: string;
	updated_at: string;
}

export interface DeliveryPageView {
	deliveries: DeliveryView[];
	total: number;
	page: number;
	per_page: number;
}

export interface AttemptView {
	attempt_number: number;
	started_at: string;
	duration_ms: number;
	status_code: number | null;
	error_code: string | null;
	response_excerpt: string | null;
	next_attempt_at: string | null;
	trigger: AttemptTrigger;
}

export interface EventDetailsView {
	event: {
		id: string;
		type: EventType;
		timestamp: string;
		ordering_key: string | null;
		received_at: string;
		/** Set once the payload is past its retention (data is then null). */
		payload_cleared_at: string | null;
		redacted_at: string | null;
		data: unknown;
	};
	deliveries: Array< DeliveryView & { attempts: AttemptView[] } >;
}

export interface RequeuedView {
	requeued: number;
}

export interface RangeReplayView {
	/** Events in the range, at most the limit. */
	matched: number;
	/** Deliveries queued (new ones, and finished ones queued again). */
	queued: number;
	/** Deliveries already pending or in flight: they go out once. */
	already_queued: number;
	/** Events beyond the limit remain; the next replay starts at next_from. */
	more: boolean;
	next_from: string | null;
	types: readonly EventType[];
	dry_run: boolean;
}

export interface InboundSecretInfoView extends SecretInfoView {
	origin: SecretOrigin;
}

export interface InboundSourceView {
	id: string;
	scheme: InboundScheme;
	status: SourceStatus;
	description: string;
	/** The source's own tolerance, or the sidecar's default (then tolerance_is_default). */
	tolerance_seconds: number;
	tolerance_is_default: boolean;
	secrets: InboundSecretInfoView[];
	created_at: string;
	updated_at: string;
}

export interface InboundSourceListView {
	sources: InboundSourceView[];
}

/** Creation and rotation answers carry the secret in full, once, when it was generated here. */
export type InboundSourceWithSecretView = InboundSourceView & { secret?: string };

export interface InboundLogEntryView {
	id: number;
	at: string;
	source: string;
	/** What the sender was told (INBOUND_OUTCOMES): `verified` only once WordPress reported a 2xx. */
	outcome: InboundOutcome;
	/** The verifier's answer to WordPress: 200 (a good signature), the refusal's 4xx, or 503 past WordPress's deadline. */
	status: number;
	/** The HTTP status the sender got (202 stored, 200 duplicate, 4xx refused, 5xx not stored); null while unconfirmed. */
	answer_status: number | null;
	/** The code of the error the sender got (why it was refused, or not stored); null for a 2xx. */
	code: string | null;
	event_id: string | null;
}

export interface InboundLogPageView {
	entries: InboundLogEntryView[];
	total: number;
	page: number;
	per_page: number;
}

/** GET /status: what WordPress shows on its status screen. */
export interface StatusView {
	version: string;
	uptime_s: number;
	/** Deliveries by state. */
	queue: Record< 'pending' | 'in_flight' | 'failed' | 'cancelled', number >;
	/** Endpoints by state. */
	endpoints: Record< EndpointStatus, number >;
}
