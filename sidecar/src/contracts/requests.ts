/**
 * The requests WordPress forwards to the sidecar (its proxy routes under
 * service-integration/v1/webhooks and /inbound), as the sidecar checks them. The one home of
 * their fields and limits: the routes parse with these schemas, and `npm run contracts` turns
 * them into the proxy routes' `args` (plugin/includes/class-sidecar-contract.php), descriptions
 * included, which WordPress shows in OPTIONS and translates.
 */
import { z } from 'zod';
import {
	DELIVERY_STATUSES,
	EVENT_TYPES,
	INBOUND_OUTCOMES,
	INBOUND_SCHEMES,
	SOURCE_ID_PATTERN,
	SOURCE_STATUSES,
} from './constants';

/** The most events one range replay takes. */
export const REPLAY_MAX_LIMIT = 10_000;
/** How many events a range replay takes when the request says nothing. */
export const REPLAY_DEFAULT_LIMIT = 1000;

/** How a list of event types is documented: the routes check each type themselves, naming the bad one. */
const EVENT_TYPE_ITEMS = { items: { type: 'string', enum: [ ...EVENT_TYPES ] } };

const page = () =>
	z.coerce.number().int().min( 1 ).max( 1_000_000 ).default( 1 ).meta( { description: 'Page, from 1.' } );
const perPage = () =>
	z.coerce.number().int().min( 1 ).max( 100 ).default( 20 ).meta( { description: 'Items per page (default 20).' } );
const graceHours = () =>
	z
		.number()
		.min( 0 )
		.max( 24 * 30 )
		.meta( { description: 'Hours the previous secret stays valid (default 24, at most 720).' } );
const isoTime = ( description: string ) => z.iso.datetime( { offset: true } ).meta( { description } );

const ENDPOINT_FIELDS = {
	event_types: z
		.array( z.string() )
		.max( 20 )
		.meta( { description: 'Event types it receives; empty: all.', ...EVENT_TYPE_ITEMS } ),
	description: z.string().max( 500 ).meta( { description: 'A note for the site owner.' } ),
	max_concurrency: z.number().int().min( 1 ).max( 64 ).meta( { description: 'Deliveries in flight to it at most.' } ),
	wc_compat_signature: z
		.boolean()
		.meta( { description: "Also sign as WooCommerce's own webhooks do (X-WC-Webhook-Signature)." } ),
	resend_failed_on_recovery: z.boolean().meta( {
		description:
			'When it succeeds again after failing, send again what ran out of attempts during the failure, in order (default: true).',
	} ),
};
const endpointUrl = ( description: string ) => z.string().min( 1 ).max( 2048 ).meta( { description, format: 'uri' } );

export const ENDPOINT_CREATE = z.strictObject( {
	url: endpointUrl( 'Required. Where deliveries are POSTed (http or https, a public address).' ),
	event_types: ENDPOINT_FIELDS.event_types.optional(),
	description: ENDPOINT_FIELDS.description.optional(),
	max_concurrency: ENDPOINT_FIELDS.max_concurrency.optional(),
	wc_compat_signature: ENDPOINT_FIELDS.wc_compat_signature.optional(),
	resend_failed_on_recovery: ENDPOINT_FIELDS.resend_failed_on_recovery.optional(),
} );

export const ENDPOINT_UPDATE = z
	.strictObject( {
		url: endpointUrl( 'Where deliveries are POSTed.' ).optional(),
		event_types: ENDPOINT_FIELDS.event_types.optional(),
		description: ENDPOINT_FIELDS.description.optional(),
		max_concurrency: ENDPOINT_FIELDS.max_concurrency.optional(),
		wc_compat_signature: ENDPOINT_FIELDS.wc_compat_signature.optional(),
		resend_failed_on_recovery: ENDPOINT_FIELDS.resend_failed_on_recovery.optional(),
	} )
	.refine( ( patch ) => Object.keys( patch ).length > 0, 'give at least one field to change' );

export const ENDPOINT_ROTATE = z.strictObject( { grace_hours: graceHours().optional() } );

export const ENDPOINT_DISABLE = z.strictObject( {
	reason: z
		.string()
		.min( 1 )
		.max( 500 )
		.meta( { description: 'Why, shown with the endpoint (1 to 500 characters).' } )
		.optional(),
} );

export const ENDPOINT_ENABLE = z.strictObject( {
	redeliver: z
		.boolean()
		.meta( {
			description:
				"Queue again what the endpoint missed (default: true after an automatic disable, false after the owner's).",
		} )
		.optional(),
} );

/** The range replay's fields, each checked on its own so that a bad one is named (invalid_<field>). */
export const RANGE_REPLAY_FIELDS = {
	from: isoTime(
		'Start of the range (inclusive), ISO 8601 with a time zone; compared with when the sidecar received each event.'
	),
	to: isoTime( 'End of the range (exclusive), ISO 8601 with a time zone; later than from.' ),
	types: z
		.array( z.string() )
		.min( 1 )
		.max( 20 )
		.meta( {
			description:
				'Event types to replay; default: the ones the endpoint subscribes to (all when it lists none).',
			...EVENT_TYPE_ITEMS,
		} ),
	limit: z
		.number()
		.int()
		.min( 1 )
		.max( REPLAY_MAX_LIMIT )
		.meta( {
			description: `At most this many events (default ${ REPLAY_DEFAULT_LIMIT }); more says whether others remain.`,
		} ),
	dry_run: z.boolean().meta( { description: 'Only count what would be replayed.' } ),
};

export const RANGE_REPLAY = z.strictObject( {
	from: RANGE_REPLAY_FIELDS.from,
	to: RANGE_REPLAY_FIELDS.to,
	types: RANGE_REPLAY_FIELDS.types.optional(),
	limit: RANGE_REPLAY_FIELDS.limit.optional(),
	dry_run: RANGE_REPLAY_FIELDS.dry_run.optional(),
} );

export const DELIVERY_QUERY = z.strictObject( {
	endpoint_id: z.string().min( 1 ).meta( { description: "Only this endpoint's deliveries." } ).optional(),
	type: z
		.string()
		.min( 1 )
		.meta( { description: 'Only deliveries of this event type.', enum: [ ...EVENT_TYPES ] } )
		.optional(),
	status: z.enum( DELIVERY_STATUSES ).meta( { description: 'Only deliveries in this status.' } ).optional(),
	page: page(),
	per_page: perPage(),
} );

export const EVENT_REPLAY = z.strictObject( {
	endpoint_id: z
		.string()
		.min( 1 )
		.meta( { description: 'Only to this endpoint (default: every endpoint it went to).' } )
		.optional(),
} );

export const SINCE_REPLAY = z.strictObject( {
	since: isoTime(
		'Required. Every delivery that failed or was cancelled since then (ISO 8601 with a time zone) goes out again.'
	),
	endpoint_id: z.string().min( 1 ).meta( { description: "Only this endpoint's deliveries." } ).optional(),
} );

const SOURCE_FIELDS = {
	id: z
		.string()
		.regex(
			SOURCE_ID_PATTERN,
			'must be 1 to 64 characters among a-z 0-9 - (it is the last segment of the receiving URL)'
		),
	scheme: z.enum( INBOUND_SCHEMES ).meta( { description: 'How the provider signs.' } ),
	status: z.enum( SOURCE_STATUSES ),
	description: z.string().max( 500 ),
	tolerance_seconds: z
		.number()
		.int()
		.min( 0 )
		.max( 86_400 )
		.nullable()
		.meta( { description: "How old a signed timestamp may be (null: the scheme's default)." } ),
	secret: z.string(),
};

export const SOURCE_CREATE = z.strictObject( {
	id: SOURCE_FIELDS.id.meta( { description: 'Required. The slug, last segment of the receiving URL.' } ),
	scheme: SOURCE_FIELDS.scheme,
	secret: SOURCE_FIELDS.secret
		.meta( { description: "The provider's secret (default: one is generated)." } )
		.optional(),
	status: SOURCE_FIELDS.status.optional(),
	description: SOURCE_FIELDS.description.optional(),
	tolerance_seconds: SOURCE_FIELDS.tolerance_seconds.optional(),
} );

export const SOURCE_UPDATE = z
	.strictObject( {
		scheme: SOURCE_FIELDS.scheme.optional(),
		status: SOURCE_FIELDS.status.optional(),
		description: SOURCE_FIELDS.description.optional(),
		tolerance_seconds: SOURCE_FIELDS.tolerance_seconds.optional(),
	} )
	.refine(
		( patch ) => Object.keys( patch ).length > 0,
		'give at least one field to change (the secret changes through rotate-secret)'
	);

export const SOURCE_ROTATE = z.strictObject( {
	secret: SOURCE_FIELDS.secret
		.meta( { description: 'The new secret, when the provider issues it (default: one is generated).' } )
		.optional(),
	grace_hours: graceHours().optional(),
} );

/** A test event to one endpoint: nothing to choose, the event is always the same kind. */
export const ENDPOINT_TEST = z.strictObject( {} );

export const INBOUND_LOG_QUERY = z.strictObject( {
	source: SOURCE_FIELDS.id.meta( { description: "Only this source's verifications." } ).optional(),
	outcome: z.enum( INBOUND_OUTCOMES ).meta( { description: 'Only verified or only refused deliveries.' } ).optional(),
	page: page(),
	per_page: perPage(),
} );

/** What the proxy routes take, by the name the generated PHP gives each (Sidecar_Contract::requests()). */
export const PROXIED_REQUESTS = {
	'endpoint.create': ENDPOINT_CREATE,
	'endpoint.update': ENDPOINT_UPDATE,
	'endpoint.rotate': ENDPOINT_ROTATE,
	'endpoint.enable': ENDPOINT_ENABLE,
	'endpoint.disable': ENDPOINT_DISABLE,
	'endpoint.test': ENDPOINT_TEST,
	'endpoint.replay': RANGE_REPLAY,
	'delivery.query': DELIVERY_QUERY,
	'event.replay': EVENT_REPLAY,
	'replay.since': SINCE_REPLAY,
	'source.create': SOURCE_CREATE,
	'source.update': SOURCE_UPDATE,
	'source.rotate': SOURCE_ROTATE,
	'inbound.log': INBOUND_LOG_QUERY,
} as const;
