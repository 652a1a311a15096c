import Ajv from 'ajv';
import { spawnSync } from 'child_process';
import fs from 'fs';
import { PROXIED_REQUESTS } from '../../sidecar/src/contracts/requests';
import { SIDECAR_CONTRACT_FILE, requestArgs, sidecarContractPhp } from '../../scripts/lib/sidecar-contract';

type Args = ReturnType< typeof requestArgs >[ string ];

/** What PHP reads from the generated file: its constants and requests(), as JSON. */
function readByPhp(): { constants: Record< string, unknown >; requests: Record< string, Args > } {
	const script = `
		define( 'ABSPATH', '/' );
		function __( $text, $domain ) { return $text; }
		require ${ JSON.stringify( SIDECAR_CONTRACT_FILE ) };
		$class = new ReflectionClass( 'ServiceIntegration\\\\Sidecar_Contract' );
		echo json_encode( array( 'constants' => $class->getConstants(), 'requests' => ServiceIntegration\\Sidecar_Contract::requests() ) );
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
		expect( sidecarContractPhp() ).toContain( "'maximum'     => 64," );
		expect( limit.safeParse( 65 ).success ).toBe( false );
	} );

	it( 'read by PHP as the same values and arguments', () => {
		const { constants, requests } = readByPhp();
		expect( requests ).toEqual( requestArgs() );
		expect( constants ).toMatchObject( {
			EVENT_TYPES: [ 'order.created', 'order.paid', 'order.refunded' ],
			REPLAY_MAX_LIMIT: 10_000,
			SOURCE_ID_PATTERN: '[a-z0-9-]{1,64}',
		} );
		expect( Object.keys( requests ).sort() ).toEqual( Object.keys( PROXIED_REQUESTS ).sort() );
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
