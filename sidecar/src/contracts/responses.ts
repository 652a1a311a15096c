/**
 * What each WordPress proxy route (service-integration/v1/webhooks and /inbound) answers: the
 * sidecar's answers (views.ts), passed on unchanged, plus the receiving URL WordPress adds to
 * sources. The one map of route to answer: `npm run contracts` turns it into the routes' response
 * schemas (Sidecar_Contract::responses() in plugin/includes/class-sidecar-contract.php), and the
 * admin page takes the types of what WordPress adds from here.
 */
import { z } from 'zod';
import {
	DELETED,
	DELIVERY_PAGE,
	ENABLED_ENDPOINT,
	ENDPOINT,
	ENDPOINT_LIST,
	ENDPOINT_TEST_RESULT,
	ENDPOINT_WITH_SECRET,
	EVENT_DETAILS,
	INBOUND_LOG_PAGE,
	INBOUND_SOURCE,
	INBOUND_SOURCE_WITH_SECRET,
	RANGE_REPLAY_RESULT,
	REQUEUED,
} from './views';

/** Added by WordPress to each source it passes on (Sidecar_Proxy_Controller). */
const RECEIVING_URL = {
	receiving_url: z.url().describe( 'Where the provider must send (added by WordPress).' ),
};

export const PROXIED_SOURCE = INBOUND_SOURCE.extend( RECEIVING_URL );
export type ProxiedSourceView = z.infer< typeof PROXIED_SOURCE >;

export const PROXIED_SOURCE_WITH_SECRET = INBOUND_SOURCE_WITH_SECRET.extend( RECEIVING_URL );
export type ProxiedSourceWithSecretView = z.infer< typeof PROXIED_SOURCE_WITH_SECRET >;

export const PROXIED_SOURCE_LIST = z.object( {
	sources: z.array( PROXIED_SOURCE ).describe( 'The sources.' ),
} );
export type ProxiedSourceListView = z.infer< typeof PROXIED_SOURCE_LIST >;

/**
 * Each proxied route's answers, by the route's schema title (the key of
 * Sidecar_Contract::responses()). A route whose methods answer differently lists each answer:
 * its schema has every answer's properties (a name the answers share keeps the first one's
 * description), and requires only those every answer has.
 */
export const PROXIED_RESPONSES = {
	'webhook-endpoints': [ ENDPOINT_LIST, ENDPOINT_WITH_SECRET ],
	'webhook-endpoint': [ ENDPOINT, DELETED ],
	'webhook-endpoint-with-secret': [ ENDPOINT_WITH_SECRET ],
	'webhook-endpoint-enabled': [ ENABLED_ENDPOINT ],
	'webhook-endpoint-disabled': [ ENDPOINT ],
	'webhook-endpoint-test': [ ENDPOINT_TEST_RESULT ],
	'webhook-endpoint-replay': [ RANGE_REPLAY_RESULT ],
	'webhook-deliveries': [ DELIVERY_PAGE ],
	'webhook-event': [ EVENT_DETAILS ],
	'webhook-event-replay': [ REQUEUED ],
	'webhook-replay': [ REQUEUED ],
	'inbound-sources': [ PROXIED_SOURCE_LIST, PROXIED_SOURCE_WITH_SECRET ],
	'inbound-source': [ PROXIED_SOURCE, DELETED ],
	'inbound-source-with-secret': [ PROXIED_SOURCE_WITH_SECRET ],
	'inbound-log': [ INBOUND_LOG_PAGE ],
} as const satisfies Record< string, readonly z.ZodObject[] >;
