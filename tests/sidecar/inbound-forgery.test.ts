import mysql from 'mysql2/promise';
import { FORWARDED_HEADER_PREFIX, INBOUND_SCHEMES, type InboundScheme } from '../../sidecar/src/contracts/constants';
import { forgeryCases } from '../support/inbound-forgeries';
import { providerSecret, sampleWebhook, type SignedWebhook } from '../support/inbound-signers';
import { startMariaDb } from '../support/mariadb';
import type { ApiCall } from './support/api-client';
import { startHarness } from './support/harness';
import { startSharedInstance } from './support/shared-instance';
import { STORE_KINDS, type StoreKind } from './support/stores-under-test';

/**
 * Forged, replayed, tampered and malformed deliveries, generated in bulk against the
 * real verify route: every one refused with the right status and code, logged as
 * refused, and nothing verified but the controls. On both stores: the embedded one, and
 * an instance on the shared MariaDB store.
 */
const TOLERANCE = 300;

/** The verify route on one store, what it logged, and its inbound_log rows. */
interface Sidecar {
	api: ApiCall;
	logText: () => string;
	sql: ( query: string ) => Promise< unknown[] >;
	close: () => Promise< void >;
}

async function startSidecar( kind: StoreKind ): Promise< Sidecar > {
	const env = { SIDECAR_INBOUND_TOLERANCE_SECONDS: String( TOLERANCE ), SIDECAR_LOG_LEVEL: 'info' };
	if ( kind === 'sqlite' ) {
		const harness = await startHarness( env );
		return {
			api: harness.api,
			logText: harness.logText,
			sql: async ( query ) => harness.stores.db.prepare( query ).all(),
			close: () => harness.close(),
		};
	}
	const database = await startMariaDb( { name: 'inbound_forgery_test' } );
	const instance = await startSharedInstance( database.url, 'instance-forgery', env );
	const admin = await mysql.createConnection( database.url );
	return {
		api: instance.api,
		logText: instance.logText,
		// COUNT(*) comes back as a string or a number depending on the driver's settings: a number, as on SQLite.
		sql: async ( query ) =>
			( ( await admin.query( query ) )[ 0 ] as Record< string, unknown >[] ).map( ( row ) =>
				Object.fromEntries(
					Object.entries( row ).map( ( [ key, value ] ) => [ key, key === 'n' ? Number( value ) : value ] )
				)
			),
		close: async () => {
			await admin.end();
			await instance.close();
			await database.stop();
		},
	};
}

describe.each( STORE_KINDS )( 'inbound forgery sweep (sidecar, %s store)', ( kind ) => {
	let sidecar: Sidecar;
	const secrets = {} as Record< InboundScheme, string >;

	beforeAll( async () => {
		sidecar = await startSidecar( kind );
		for ( const scheme of INBOUND_SCHEMES ) {
			const given = providerSecret( scheme );
			const created = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: `forge-${ scheme }`,
				scheme,
				secret: given,
			} );
			expect( created.status ).toBe( 201 );
			secrets[ scheme ] = given ?? ( created.body.secret as string );
			// The same secret on a disabled source: refused for being disabled, not for the signature.
			const disabled = await sidecar.api( 'POST', '/v1/inbound/sources', {
				id: `forge-${ scheme }-off`,
				scheme,
				secret: secrets[ scheme ],
				status: 'disabled',
			} );
			expect( disabled.status ).toBe( 201 );
		}
	} );

	afterAll( async () => {
		await sidecar?.close();
	} );

	const send = ( source: string, webhook: SignedWebhook, unprefixed = false ) =>
		sidecar.api( 'POST', `/v1/inbound/sources/${ source }/verify`, webhook.body, {
			headers: unprefixed
				? webhook.headers
				: Object.fromEntries(
						Object.entries( webhook.headers ).map( ( [ n, v ] ) => [ FORWARDED_HEADER_PREFIX + n, v ] )
					),
		} );

	it( 'refuses every generated forgery with the right status and code, and verifies only the controls', async () => {
		const cases = INBOUND_SCHEMES.flatMap( ( scheme ) =>
			forgeryCases( scheme, `forge-${ scheme }`, secrets[ scheme ], { toleranceSeconds: TOLERANCE } )
		);
		expect( cases.length ).toBeGreaterThanOrEqual( 300 );

		// Controls: the unmodified webhooks verify, so every refusal below is the mutation's doing.
		for ( const scheme of INBOUND_SCHEMES ) {
			const control = await send( `forge-${ scheme }`, sampleWebhook( scheme, secrets[ scheme ] ) );
			expect( { scheme, status: control.status } ).toEqual( { scheme, status: 200 } );
		}

		const mismatches: unknown[] = [];
		for ( let i = 0; i < cases.length; i += 25 ) {
			await Promise.all(
				cases.slice( i, i + 25 ).map( async ( c ) => {
					const answer = await send( c.source, c.webhook, c.unprefixed );
					const codes = Array.isArray( c.code ) ? c.code : [ c.code ];
					if ( answer.status !== c.status || ! codes.includes( answer.body?.code ) ) {
						mismatches.push( {
							label: c.label,
							expected: [ c.status, c.code ],
							got: [ answer.status, answer.body?.code ],
						} );
					}
				} )
			);
		}
		expect( mismatches ).toEqual( [] );

		const outcomes = await sidecar.sql(
			"SELECT outcome, COUNT(*) AS n FROM inbound_log WHERE source LIKE 'forge-%' GROUP BY outcome ORDER BY outcome"
		);
		// The controls' good signatures stay unconfirmed: no WordPress reported what their senders got.
		expect( outcomes ).toEqual( [
			{ outcome: 'refused', n: cases.length },
			{ outcome: 'unconfirmed', n: INBOUND_SCHEMES.length },
		] );
		// Refusals leave only their log row: no secret, no payload anywhere in the log.
		const logged = JSON.stringify( await sidecar.sql( 'SELECT * FROM inbound_log' ) ) + sidecar.logText();
		expect( logged ).not.toContain( 'forgery sweep' );
		for ( const secret of Object.values( secrets ) ) {
			expect( logged ).not.toContain( secret );
		}
	} );
} );
