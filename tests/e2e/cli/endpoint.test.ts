import { adminClient } from '../support/clients';
import { wp } from './run-wp';

const ENDPOINT = [ 'service-integration', 'endpoint' ];
const ROUTE = '/service-integration/v1/webhooks';
// A loopback receiver (allow-listed for the suite's sidecar); nothing is delivered in this file.
const URL = 'http://127.0.0.1:9599/cli-e2e';

interface Endpoint {
	id: string;
	url: string;
	status: string;
	event_types: string[];
	description: string | null;
	disabled_reason: string | null;
}

async function listed(): Promise< Endpoint[] > {
	return JSON.parse( ( await wp( ...ENDPOINT, 'list', '--format=json' ) ).stdout ) as Endpoint[];
}

describe( 'wp service-integration endpoint and delivery (WP-CLI, through the sidecar proxy routes)', () => {
	let id = '';

	// Nothing listens at URL: an endpoint left active would get every later test's order events.
	afterAll( async () => {
		for ( const endpoint of await listed() ) {
			if ( endpoint.url.startsWith( URL ) ) {
				await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/endpoints/${ endpoint.id }` } );
			}
		}
	} );

	it( 'lists the commands in help', async () => {
		const help = await wp( 'help', ...ENDPOINT );
		for ( const command of [
			'add',
			'delete',
			'disable',
			'enable',
			'list',
			'replay',
			'replay-range',
			'rotate-secret',
			'test',
			'update',
		] ) {
			expect( help.stdout ).toMatch( new RegExp( `^\\s+${ command }\\s`, 'm' ) );
		}
		expect( ( await wp( 'help', 'service-integration' ) ).stdout ).toMatch(
			/delivery[\s\S]*endpoint[\s\S]*service-account/
		);
		expect( ( await wp( 'help', 'service-integration', 'delivery', 'list' ) ).stdout ).toContain(
			'--status=<status>'
		);
	} );

	it( 'adds an endpoint, printing its secret once; --porcelain prints the id', async () => {
		const added = await wp(
			...ENDPOINT,
			'add',
			URL,
			'--event-types=order.paid,order.refunded',
			'--description=cli'
		);
		expect( added.stderr ).toBe( '' );
		expect( added.status ).toBe( 0 );
		const secret = /secret.*: (whsec_\S+)$/m.exec( added.stdout )?.[ 1 ] as string;
		expect( secret ).toBeDefined();

		const porcelain = await wp( ...ENDPOINT, 'add', `${ URL }/2`, '--porcelain' );
		expect( porcelain.stdout ).toMatch( /^\S+\n$/ );
		id = porcelain.stdout.trim();

		const table = await wp( ...ENDPOINT, 'list' );
		expect( table.stdout ).toContain( id );
		expect( table.stdout ).toContain( 'order.paid,order.refunded' );
		expect( table.stdout ).not.toContain( 'whsec_' );
		expect( ( await wp( ...ENDPOINT, 'list', '--format=yaml' ) ).stdout ).not.toContain( secret );
	} );

	it( 'lists in every format, equal to the REST route', async () => {
		const endpoints = await listed();
		const rest = await adminClient().get< { endpoints: Array< Record< string, unknown > > } >(
			`${ ROUTE }/endpoints`
		);
		expect( endpoints ).toEqual(
			rest.body.endpoints.map( ( endpoint ) => ( {
				id: endpoint.id,
				url: endpoint.url,
				status: endpoint.status,
				event_types: endpoint.event_types,
				description: endpoint.description,
				disabled_reason: endpoint.disabled_reason,
			} ) )
		);
		expect( ( await wp( ...ENDPOINT, 'list', '--format=ids' ) ).stdout.trim().split( ' ' ) ).toEqual(
			endpoints.map( ( endpoint ) => endpoint.id )
		);
		expect( ( await wp( ...ENDPOINT, 'list', '--format=count' ) ).stdout.trim() ).toBe(
			String( endpoints.length )
		);
		expect( ( await wp( ...ENDPOINT, 'list', '--format=csv', '--fields=id,max_concurrency' ) ).stdout ).toMatch(
			new RegExp( `^id,max_concurrency\\n[\\s\\S]*${ id },4$`, 'm' )
		);
	} );

	it( 'updates, rotates the secret, disables and enables', async () => {
		expect(
			await wp(
				...ENDPOINT,
				'update',
				id,
				'--event-types=order.paid',
				'--max-concurrency=2',
				`--endpoint-url=${ URL }/3`
			)
		).toMatchObject( { status: 0, stdout: `Success: Endpoint ${ id } updated.\n` } );
		expect( ( await listed() ).find( ( endpoint ) => endpoint.id === id ) ).toMatchObject( {
			event_types: [ 'order.paid' ],
			url: `${ URL }/3`,
		} );
		// The re-send on recovery: on by default, turned off and on again.
		const resendOf = async () =>
			( await wp( ...ENDPOINT, 'list', '--format=csv', '--fields=id,resend_failed_on_recovery' ) ).stdout;
		expect( await resendOf() ).toMatch( new RegExp( `^${ id },true$`, 'm' ) );
		expect( ( await wp( ...ENDPOINT, 'update', id, '--no-resend-failed-on-recovery' ) ).status ).toBe( 0 );
		expect( await resendOf() ).toMatch( new RegExp( `^${ id },false$`, 'm' ) );
		expect( ( await wp( ...ENDPOINT, 'update', id, '--resend-failed-on-recovery' ) ).status ).toBe( 0 );
		expect( await resendOf() ).toMatch( new RegExp( `^${ id },true$`, 'm' ) );
		const nothing = await wp( ...ENDPOINT, 'update', id );
		expect( nothing ).toMatchObject( { status: 1, stderr: expect.stringContaining( 'Nothing to change' ) } );

		const rotated = await wp( ...ENDPOINT, 'rotate-secret', id, '--grace-hours=0', '--porcelain' );
		expect( rotated.stdout ).toMatch( /^whsec_\S+\n$/ );

		expect( ( await wp( ...ENDPOINT, 'disable', id, '--reason=maintenance' ) ).status ).toBe( 0 );
		expect( ( await listed() ).find( ( endpoint ) => endpoint.id === id ) ).toMatchObject( {
			status: 'disabled',
			disabled_reason: 'maintenance',
		} );
		const enabled = await wp( ...ENDPOINT, 'enable', id, '--no-redeliver' );
		expect( enabled.stdout ).toContain( `Success: Endpoint ${ id } enabled (queued again: 0` );
		expect( ( await listed() ).find( ( endpoint ) => endpoint.id === id )?.status ).toBe( 'active' );
	} );

	it( 'counts a range replay with --dry-run, and refuses a bad range clearly', async () => {
		const from = new Date( Date.now() - 3600_000 ).toISOString();
		const to = new Date( Date.now() + 60_000 ).toISOString();
		const dry = await wp(
			...ENDPOINT,
			'replay-range',
			id,
			`--from=${ from }`,
			`--to=${ to }`,
			'--dry-run',
			'--format=json'
		);
		const answer = JSON.parse( dry.stdout ) as Record< string, unknown >;
		const rest = await adminClient().post( `${ ROUTE }/endpoints/${ id }/replay`, { from, to, dry_run: true } );
		expect( answer ).toEqual( rest.body );
		// The last hour holds whatever events other files of the run sent: the count is the REST route's, whatever it is.
		expect( answer ).toMatchObject( { dry_run: true, queued: expect.any( Number ) } );

		const backwards = await wp( ...ENDPOINT, 'replay-range', id, `--from=${ to }`, `--to=${ from }`, '--dry-run' );
		expect( backwards.status ).toBe( 1 );
		expect( backwards.stderr ).toMatch( /invalid_to, HTTP 400/ );
	} );

	it( 'fails clearly on an unknown endpoint or event', async () => {
		for ( const command of [
			[ 'disable', 'nope-nope' ],
			[ 'rotate-secret', 'nope-nope' ],
			[ 'delete', 'nope-nope', '--yes' ],
		] ) {
			const result = await wp( ...ENDPOINT, ...command );
			expect( result.status ).toBe( 1 );
			expect( result.stderr ).toMatch(
				/endpoint_not_found, HTTP 404\) List the endpoints with: wp service-integration endpoint list/
			);
		}
		const event = await wp( ...ENDPOINT, 'replay', 'no-such-event' );
		expect( event.status ).toBe( 1 );
		expect( event.stderr ).toMatch( /HTTP 404\) Find event ids with/ );
	} );

	it( 'lists deliveries with the filters, equal to the REST route', async () => {
		const json = await wp(
			'service-integration',
			'delivery',
			'list',
			`--endpoint=${ id }`,
			'--status=failed',
			'--format=json'
		);
		const rest = await adminClient().get< { deliveries: unknown[]; total: number } >(
			`${ ROUTE }/deliveries?endpoint_id=${ id }&status=failed`
		);
		expect( JSON.parse( json.stdout ) ).toEqual( rest.body.deliveries );
		expect( ( await wp( 'service-integration', 'delivery', 'list', '--format=count' ) ).stdout.trim() ).toMatch(
			/^\d+$/
		);
		const unknown = await wp( 'service-integration', 'delivery', 'list', '--endpoint=nope-nope' );
		expect( unknown ).toMatchObject( { status: 1, stderr: expect.stringContaining( 'endpoint_not_found' ) } );
	} );

	it( 'deletes only with --yes', async () => {
		const unconfirmed = await wp( ...ENDPOINT, 'delete', id );
		expect( unconfirmed ).toMatchObject( { status: 1, stderr: expect.stringContaining( '--yes' ) } );
		expect( ( await listed() ).map( ( endpoint ) => endpoint.id ) ).toContain( id );
		expect( await wp( ...ENDPOINT, 'delete', id, '--yes' ) ).toMatchObject( {
			status: 0,
			stdout: `Success: Endpoint ${ id } deleted.\n`,
		} );
		expect( ( await listed() ).map( ( endpoint ) => endpoint.id ) ).not.toContain( id );
	} );
} );
