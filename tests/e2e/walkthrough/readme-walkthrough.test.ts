import { spawn } from 'child_process';
import fs from 'fs';
import net from 'net';
import os from 'os';
import path from 'path';
import { ROOT } from '../../../scripts/lib/paths';
import { adminClient } from '../support/clients';
import { commerce } from '../support/commerce';
import { readState } from '../support/environment';

/**
 * The README's ten-minute walkthrough, run from the README itself: its `sh` blocks, in order,
 * as one bash script against the suite's site and sidecar. Only the local environment's
 * addresses are swapped for the suite's (each must still be in the README, so a renamed
 * variable fails here instead of running against another site).
 */
const README = path.join( ROOT, 'README.md' );
const SECTION = '## A ten-minute walkthrough';

function walkthroughBlocks(): string[] {
	const readme = fs.readFileSync( README, 'utf8' );
	const start = readme.indexOf( `\n${ SECTION }\n` );
	if ( start === -1 ) {
		throw new Error( `README.md has no "${ SECTION }" section` );
	}
	const end = readme.indexOf( '\n## ', start + 1 );
	const section = readme.slice( start, end === -1 ? undefined : end );
	return [ ...section.matchAll( /```sh\n([\s\S]*?)```/g ) ].map( ( match ) => match[ 1 ] as string );
}

async function freePort(): Promise< number > {
	return new Promise( ( resolve, reject ) => {
		const server = net.createServer();
		server.listen( 0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close( () => resolve( port ) );
		} );
		server.on( 'error', reject );
	} );
}

interface Run {
	code: number | null;
	out: string;
	err: string;
}

function runBash( script: string, env: NodeJS.ProcessEnv, timeoutMs: number ): Promise< Run > {
	return new Promise( ( resolve ) => {
		const child = spawn( 'bash', [ '-euo', 'pipefail', '-c', script ], { cwd: ROOT, env, detached: true } );
		let out = '';
		let err = '';
		child.stdout.on( 'data', ( chunk ) => ( out += chunk ) );
		child.stderr.on( 'data', ( chunk ) => ( err += chunk ) );
		// The whole group: the receiver runs in the background of the script.
		const timer = setTimeout( () => process.kill( -( child.pid as number ), 'SIGKILL' ), timeoutMs );
		child.on( 'close', ( code ) => {
			clearTimeout( timer );
			resolve( { code, out, err } );
		} );
	} );
}

/** The endpoints registered for the walkthrough's receiver. */
async function receiverEndpoints( receiverPort: number ): Promise< Array< { id: string; url: string } > > {
	const list = await adminClient().get< { endpoints: Array< { id: string; url: string } > } >(
		'/service-integration/v1/webhooks/endpoints'
	);
	return ( list.body.endpoints ?? [] ).filter( ( endpoint ) =>
		endpoint.url.startsWith( `http://127.0.0.1:${ receiverPort }/` )
	);
}

/** When the walkthrough fails before its tidy-up, what it registered must not stay: later files must not deliver to it. */
async function removeWhatItRegistered( receiverPort: number ): Promise< void > {
	const admin = adminClient();
	for ( const endpoint of await receiverEndpoints( receiverPort ) ) {
		if ( endpoint.url.startsWith( `http://127.0.0.1:${ receiverPort }/` ) ) {
			await admin.request( {
				method: 'DELETE',
				path: `/service-integration/v1/webhooks/endpoints/${ endpoint.id }`,
			} );
		}
	}
	await admin.request( { method: 'DELETE', path: '/service-integration/v1/inbound/sources/crm' } );
}

describe( 'the README walkthrough', () => {
	let receiverPort = 0;

	afterAll( async () => {
		if ( receiverPort ) {
			await removeWhatItRegistered( receiverPort );
		}
	} );

	// Twice: what the first run leaves (a deleted source's events, the account) must not change the second's answers.
	it( 'runs as written, twice: service account, the refusals, a manufacturing order, a verified outbound webhook for an order placed in WooCommerce, the paid order, an inbound webhook and its duplicate, the tidy-up', async () => {
		const state = readState();
		const passwordFile = path.join(
			fs.mkdtempSync( path.join( os.tmpdir(), 'walkthrough-' ) ),
			'admin-application-password'
		);
		fs.writeFileSync( passwordFile, state.admin.applicationPassword + '\n', { mode: 0o600 } );
		receiverPort = await freePort();
		const swaps: Array< [ string, string ] > = [
			[ 'SITE=http://localhost:8888', `SITE=${ state.siteUrl }` ],
			[ '.cache/environments/dev/admin-application-password', passwordFile ],
			[ 'RECEIVER_PORT=9000', `RECEIVER_PORT=${ receiverPort }` ],
		];
		let script = walkthroughBlocks().join( '\n' );
		for ( const [ local, suite ] of swaps ) {
			expect( script ).toContain( local );
			script = script.split( local ).join( suite );
		}

		for ( const round of [ 1, 2 ] ) {
			await runOnce( script, state, round );
		}
		// Each run makes about twenty REST calls, 3 to 24 s each on a busy machine with WooCommerce.
	}, 600_000 );

	async function runOnce( script: string, state: ReturnType< typeof readState >, round: number ): Promise< void > {
		const run = await runBash(
			script,
			// npm run service-account talks to SI_SITE_URL (default: the npm start site).
			{
				...process.env,
				SI_SITE_URL: state.siteUrl,
				SI_ADMIN_USER: state.admin.username,
				SI_ADMIN_PASSWORD: state.admin.applicationPassword,
			},
			240_000
		);
		const context = `run ${ round }, exit ${ run.code }\n--- stdout\n${ run.out }\n--- stderr\n${ run.err }`;
		expect( { code: run.code, context } ).toEqual( { code: 0, context } );

		const lines = run.out.split( '\n' );
		// 1. The account is the integration role, and nothing more.
		expect( lines ).toContain( '["service_integration"]' );
		// 2. Both calls of the verification procedure refused, and the whole sweep passed.
		expect( lines.filter( ( line ) => line === 'rest_forbidden' ) ).toHaveLength( 2 );
		expect( lines ).toContain( 'PASSED' );
		// 3. The manufacturing order was published.
		expect( lines ).toContain( 'publish' );
		// 4. The receiver verified both events, and they carry the order the shop created.
		// The order's id is the first line that is only a number (the inbound total comes later).
		const orderId = Number( lines.find( ( line ) => /^\d+$/.test( line ) ) );
		expect( orderId ).toBeGreaterThan( 0 );
		const verified = lines.flatMap( ( line, index ) => {
			const match = /^verified (order\.\w+) \S+$/.exec( line );
			return match
				? [
						{
							type: match[ 1 ],
							data: JSON.parse( lines[ index + 1 ] as string ) as {
								order: { id: number; total: string; status: string };
							},
						},
					]
				: [];
		} );
		expect( verified.map( ( event ) => event.type ).sort() ).toEqual( [ 'order.created', 'order.paid' ] );
		const store = await commerce().getOrder( orderId as number );
		for ( const event of verified ) {
			expect( event.data.order.id ).toBe( orderId );
			expect( event.data.order.total ).toBe( store.total );
		}
		expect( lines ).not.toContain( expect.stringMatching( /^REFUSED/ ) );
		// 5. The endpoint serves that paid order's customer.
		expect( lines ).toContain( '{"first_name":"Ada","last_name":"Lovelace","email":"ada@example.com"}' );
		// 6. 202 for the event, 200 for its duplicate, one event kept.
		const answers = lines
			.filter( ( line ) => /^\d{3} /.test( line ) )
			.map( ( line ) => Number( line.slice( 0, 3 ) ) );
		expect( answers ).toEqual( [ 202, 200 ] );
		// 6, then 7: one event kept; the endpoint and the source deleted, and none of the endpoint left.
		expect( lines.filter( Boolean ).slice( -3 ) ).toEqual( [ '1', 'true', 'true' ] );
		expect( await receiverEndpoints( receiverPort ) ).toEqual( [] );
		expect( ( await commerce().getOrder( orderId ) ).status ).toBe( 'processing' );
	}
} );
