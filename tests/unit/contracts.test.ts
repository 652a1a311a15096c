import Ajv from 'ajv';
import { spawnSync } from 'child_process';
import fs from 'fs';
import { PROXIED_REQUESTS, REPLAY_DEFAULT_LIMIT, REPLAY_MAX_LIMIT } from '../../sidecar/src/contracts/requests';
import { PROXIED_RESPONSES } from '../../sidecar/src/contracts/responses';
import { SIDECAR_CONTRACT_FILE, requestArgs, sidecarContractPhp } from '../../scripts/lib/sidecar-contract';
import { responseSchemas } from '../../scripts/lib/sidecar-responses';
import { deliveryView, endpointView, eventDetailsView } from '../../sidecar/src/http/routes/views';
import { openDatabase } from '../../sidecar/src/store/sqlite/database';
import { createStores } from '../../sidecar/src/store/sqlite/stores';

type Args = ReturnType< typeof requestArgs >[ string ];

/** What PHP reads from the generated file: its constants, requests() and responses(), as JSON. */
function readByPhp(): {
	constants: Record< string, unknown >;
	requests: Record< string, Args >;
	responses: Record< string, Record< string, unknown > >;
} {
	const script = `
		define( 'ABSPATH', '/' );
		function __( $text, $domain ) { return $text; }
		require ${ JSON.stringify( SIDECAR_CONTRACT_FILE ) };
		$class = new ReflectionClass( 'ServiceIntegration\\\\Sidecar_Contract' );
		echo json_encode( array(
			'constants' => $class->getConstants(),
			// Each request's arguments are a map (empty for endpoint.test): an object in JSON.
			'requests'  => array_map( fn( $args ) => (object) $args, ServiceIntegration\\Sidecar_Contract::requests() ),
			'responses' => ServiceIntegration\\Sidecar_Contract::responses(),
		) );
	`;
	const result = spawnSync( 'php', [ '-r', script ], { encoding: 'utf8' } );
	expect( result.stderr ).toBe( '' );
	return JSON.parse( result.stdout );
}

/** The REST arguments of one request as one JSON Schema object, the way WordPress applies them. */
function asObjectSchema( args: Args ) {
	const properties: Record< string, unknown > = {};
	const required: string[] = [];
	for ( const [ name, { required: isRequired, description: _description, ...rest } ] of Object.entries( args ) ) {
		properties[ name ] = rest;
		if ( isRequired === true ) {
			required.push( name );
		}
	}
	return { type: 'object', properties, required };
}

describe( "the proxy routes' arguments, generated from the sidecar's request schemas", () => {
	it( 'are committed as npm run contracts writes them (the check fails when the sidecar changes)', () => {
		expect( fs.readFileSync( SIDECAR_CONTRACT_FILE, 'utf8' ) ).toBe( sidecarContractPhp() );
		// A changed limit on the sidecar's side makes a different file.
		const limit = PROXIED_REQUESTS[ 'endpoint.create' ].shape.max_concurrency;
		expect( sidecarContractPhp() ).toContain( "$fields['max_concurrency'] + array( 'maximum' => 64 )" );
		expect( limit.safeParse( 65 ).success ).toBe( false );
	} );

	it( 'read by PHP as the same values and arguments', () => {
		const { constants, requests } = readByPhp();
		expect( requests ).toEqual( requestArgs() );
		// In the same order too (what OPTIONS lists): the file builds some from shared parts.
		expect( JSON.stringify( requests ) ).toBe( JSON.stringify( requestArgs() ) );
		expect( constants ).toMatchObject( {
			EVENT_TYPES: [ 'order.created', 'order.paid', 'order.refunded' ],
			REPLAY_MAX_LIMIT: 10_000,
			SOURCE_ID_PATTERN: '[a-z0-9-]{1,64}',
		} );
		expect( Object.keys( requests ).sort() ).toEqual( Object.keys( PROXIED_REQUESTS ).sort() );
	} );

	it( 'translate each description with one __() call, however many arguments and fields it describes', () => {
		const descriptions = ( value: unknown ): string[] =>
			value !== null && typeof value === 'object'
				? Object.entries( value ).flatMap( ( [ key, item ] ) =>
						key === 'description' && typeof item === 'string' ? [ item ] : descriptions( item )
					)
				: [];
		const { requests, responses } = readByPhp();
		const described = new Set( descriptions( { requests, responses } ) );
		const calls = [ ...sidecarContractPhp().matchAll( /__\( '((?:[^'\\]|\\.)*)', 'service-integration' \)/g ) ].map(
			( [ , text ] ) => ( text as string ).replace( /\\(.)/g, '$1' )
		);
		expect( calls.filter( ( text, index ) => calls.indexOf( text ) !== index ) ).toEqual( [] );
		expect( new Set( calls ) ).toEqual( described );
	} );

	// Each value at and past a limit: the generated arguments accept what the sidecar accepts.
	const cases: [ keyof typeof PROXIED_REQUESTS, Record< string, unknown > ][] = [
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', max_concurrency: 64 } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', max_concurrency: 65 } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', max_concurrency: 0 } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', max_concurrency: 1.5 } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/' + 'a'.repeat( 2048 ) } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', description: 'd'.repeat( 500 ) } ],
		[ 'endpoint.create', { url: 'https://hooks.example.com/a', description: 'd'.repeat( 501 ) } ],
		[ 'endpoint.create', { description: 'no url' } ],
		[ 'endpoint.rotate', { grace_hours: 720 } ],
		[ 'endpoint.rotate', { grace_hours: 720.5 } ],
		[ 'endpoint.rotate', { grace_hours: -1 } ],
		[ 'endpoint.disable', { reason: '' } ],
		[ 'endpoint.disable', { reason: 'r'.repeat( 500 ) } ],
		[ 'endpoint.replay', { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00+01:00', limit: 10_000 } ],
		[ 'endpoint.replay', { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', limit: 10_001 } ],
		[ 'endpoint.replay', { from: '2026-11-01T00:00:00Z' } ],
		[ 'endpoint.replay', { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z', dry_run: 'yes' } ],
		[ 'source.create', { id: 'stripe-live', scheme: 'stripe', tolerance_seconds: null } ],
		[ 'source.create', { id: 'Stripe', scheme: 'stripe' } ],
		[ 'source.create', { id: 'stripe', scheme: 'paypal' } ],
		[ 'source.create', { id: 'stripe', scheme: 'stripe', tolerance_seconds: 86_401 } ],
		[ 'inbound.log', { outcome: 'verified', per_page: 100 } ],
		[ 'inbound.log', { outcome: 'maybe' } ],
		[ 'inbound.log', { per_page: 101 } ],
		[ 'delivery.query', { status: 'in_flight', page: 1_000_000 } ],
		[ 'delivery.query', { status: 'lost' } ],
	];
	// Formats are WordPress's to check (rest_parse_date for date-time); the limits are what is compared.
	const ajv = new Ajv( { allErrors: true, strict: false, validateFormats: false } );
	const labelled = cases.map( ( [ name, body ] ) => [ name, JSON.stringify( body ).slice( 0, 90 ), body ] as const );
	it.each( labelled )(
		'%s %s: accepted by the arguments exactly when the sidecar accepts it',
		( name, _label, body ) => {
			const schema = PROXIED_REQUESTS[ name ];
			const validate = ajv.compile( asObjectSchema( requestArgs()[ name ] as Args ) );
			expect( validate( body ) ).toBe( schema.safeParse( body ).success );
		}
	);
} );

/**
 * The routes' response schemas as WordPress serves them (read by PHP from the generated file),
 * checked against what the sidecar really answers: its own view functions over rows of a real
 * store. Formats are documentation here, as in WordPress: the shapes are what is compared.
 */
describe( "the proxy routes' response schemas, generated from the sidecar's answers", () => {
	const { responses } = readByPhp();
	const ajv = new Ajv( { allErrors: true, strict: false, validateFormats: false } );
	const validate = ( title: string, answer: unknown ) => {
		const check = ajv.compile( responses[ title ] as object );
		return check( answer )
			? []
			: ( check.errors ?? [] ).map( ( error ) => `${ error.instancePath } ${ error.message }` );
	};

	const now = Date.parse( '2026-11-27T10:00:00Z' );
	const db = openDatabase( { dataDir: ':memory:' } );
	const stores = createStores( db );
	const endpoint = stores.endpoints.create(
		{
			url: 'https://hooks.example.com/orders',
			description: 'ERP',
			eventTypes: [ 'order.paid' ],
			maxConcurrency: 4,
			wcCompatSignature: false,
			secret: 'whsec_' + 'a'.repeat( 40 ),
		},
		now
	);
	stores.events.insertBatch(
		[
			{
				id: 'evt_1',
				type: 'order.paid',
				timestamp: '2026-11-27T09:59:00+01:00',
				orderingKey: 'order-1',
				data: { id: 1 },
			},
		],
		now,
		now
	);
	const [ claimed ] = stores.deliveries.claimDue( endpoint.id, now, 1 );
	stores.deliveries.complete( {
		deliveryId: claimed!.id,
		endpointId: endpoint.id,
		status: 'pending',
		attemptNumber: 1,
		cycleAttempts: 1,
		trigger: 'scheduled',
		startedAt: now,
		durationMs: 120,
		statusCode: 500,
		errorCode: 'http_500',
		responseExcerpt: 'oops',
		nextAttemptAt: now + 60_000,
		lastError: 'HTTP 500',
		now,
	} );
	const health = stores.deliveries.health( endpoint.id, now - 86_400_000, 50 );
	const endpointAnswer = endpointView( endpoint, health );
	afterAll( () => db.close() );

	it( 'read by PHP as the generator makes them from zod, one per route title', () => {
		expect( responses ).toEqual( responseSchemas() );
		expect( JSON.stringify( responses ) ).toBe( JSON.stringify( responseSchemas() ) );
		expect( Object.keys( responses ).sort() ).toEqual( Object.keys( PROXIED_RESPONSES ).sort() );
		expect( responses[ 'webhook-endpoint' ] ).toMatchObject( {
			title: 'webhook-endpoint',
			type: 'object',
			properties: {
				url: {
					description: 'Where deliveries are POSTed.',
					type: 'string',
					context: [ 'view', 'edit' ],
					readonly: true,
				},
				disabled_by: { type: [ 'string', 'null' ], enum: [ 'auto', 'owner', null ] },
			},
		} );
	} );

	it( "accept the sidecar's real answers, built by its own views from store rows", () => {
		expect( health.lastError ).not.toBeNull(); // the nullable object filled in
		expect( validate( 'webhook-endpoint', endpointAnswer ) ).toEqual( [] );
		expect( validate( 'webhook-endpoint-with-secret', { ...endpointAnswer, secret: 'whsec_x' } ) ).toEqual( [] );
		expect( validate( 'webhook-endpoints', { endpoints: [ endpointAnswer ] } ) ).toEqual( [] );
		const event = stores.events.get( 'evt_1' );
		expect( validate( 'webhook-event', eventDetailsView( event!, stores.deliveries.ofEvent( 'evt_1' ) ) ) ).toEqual(
			[]
		);
		const { deliveries, total } = stores.deliveries.list( { page: 1, perPage: 20 } );
		expect( deliveries ).toHaveLength( 1 );
		const page = { deliveries: deliveries.map( deliveryView ), total, page: 1, per_page: 20 };
		expect( validate( 'webhook-deliveries', page ) ).toEqual( [] );
		const disabled = { ...endpointAnswer, status: 'disabled', disabled_by: 'owner', disabled_reason: 'paused' };
		expect( validate( 'webhook-endpoint-disabled', disabled ) ).toEqual( [] );
	} );

	it( 'refuse an answer with a field missing, of the wrong type or out of its enum', () => {
		// GET and DELETE on one endpoint answer differently: that route's schema requires only their common id.
		expect( responses[ 'webhook-endpoint' ]?.required ).toEqual( [ 'id' ] );
		const { url: _url, ...withoutUrl } = endpointAnswer;
		expect( validate( 'webhook-endpoint-disabled', withoutUrl ) ).toEqual( [
			" must have required property 'url'",
		] );
		expect( validate( 'webhook-endpoint-disabled', { ...endpointAnswer, max_concurrency: '4' } ) ).toEqual( [
			'/max_concurrency must be integer',
		] );
		expect( validate( 'webhook-endpoint-disabled', { ...endpointAnswer, disabled_by: 'someone' } ) ).toEqual( [
			'/disabled_by must be equal to one of the allowed values',
		] );
		const noHealthRate = { ...endpointAnswer, health: { ...endpointAnswer.health, recent_attempts: null } };
		expect( validate( 'webhook-endpoint-disabled', noHealthRate ) ).toEqual( [
			'/health/recent_attempts must be integer',
		] );
		expect( validate( 'webhook-replay', { requeued: -1 } ) ).toEqual( [ '/requeued must be >= 0' ] );
		expect( validate( 'webhook-endpoint-with-secret', endpointAnswer ) ).toEqual( [
			" must have required property 'secret'",
		] );
	} );
} );

/**
 * WP-CLI reads a command's help from its PHP docblock, which cannot be generated: where that help
 * states a limit of the sidecar's, this checks it is the contract's.
 */
describe( "the WP-CLI help's statements of the sidecar's limits", () => {
	it( "gives the range replay the limit and default of the sidecar's request schema", () => {
		const command = fs.readFileSync( 'plugin/includes/Cli/class-endpoint-command.php', 'utf8' );
		const limit = /\[--limit=<n>\]\n\s*\* : At most this many events \(1 to (\d+), default (\d+)\)\./.exec(
			command
		);
		expect( limit ).not.toBeNull();
		expect( { max: Number( limit?.[ 1 ] ), default: Number( limit?.[ 2 ] ) } ).toEqual( {
			max: REPLAY_MAX_LIMIT,
			default: REPLAY_DEFAULT_LIMIT,
		} );
	} );
} );
