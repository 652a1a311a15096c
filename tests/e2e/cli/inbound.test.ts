import { randomUUID } from 'node:crypto';
import { adminClient } from '../support/clients';
import { ADMIN, sendWebhook } from '../support/inbound';
import { signStandardWebhook } from '../../support/inbound-signers';
import { wp } from './run-wp';

const SOURCE = [ 'service-integration', 'inbound', 'source' ];
const EVENT = [ 'service-integration', 'inbound', 'event' ];
const ID = 'cli-inbound';

interface Source {
	id: string;
	scheme: string;
	status: string;
	description: string | null;
	receiving_url: string;
	[ key: string ]: unknown;
}

async function listed(): Promise< Source[] > {
	return JSON.parse( ( await wp( ...SOURCE, 'list', '--format=json' ) ).stdout ) as Source[];
}

describe( 'wp service-integration inbound source and event (WP-CLI, through the proxy and events routes)', () => {
	let secret = '';

	beforeAll( async () => {
		await adminClient().request( { method: 'DELETE', path: `${ ADMIN }/sources/${ ID }` } );
	} );

	afterAll( async () => {
		await adminClient().request( { method: 'DELETE', path: `${ ADMIN }/sources/${ ID }` } );
	} );

	it( 'lists the commands in help', async () => {
		const help = await wp( 'help', ...SOURCE );
		for ( const command of [ 'add', 'delete', 'disable', 'enable', 'list', 'rotate-secret' ] ) {
			expect( help.stdout ).toMatch( new RegExp( `^\\s+${ command }\\s`, 'm' ) );
		}
		expect( ( await wp( 'help', 'service-integration', 'inbound' ) ).stdout ).toMatch( /event[\s\S]*source/ );
		expect( ( await wp( 'help', ...EVENT, 'list' ) ).stdout ).toContain( '--status=<status>' );
		expect( ( await wp( 'help', 'service-integration' ) ).stdout ).toMatch(
			/inbound[\s\S]*outbox[\s\S]*paid-orders[\s\S]*sidecar/
		);
	} );

	it( 'adds a source, printing its receiving URL and its generated secret once', async () => {
		const added = await wp( ...SOURCE, 'add', ID, '--scheme=standard-webhooks', '--description=cli' );
		expect( added ).toMatchObject( { status: 0, stderr: '' } );
		expect( added.stdout ).toMatch(
			new RegExp( `^Success: Inbound source ${ ID } added\\. Its receiving URL: http\\S+/${ ID }$`, 'm' )
		);
		secret = /^Secret .*: (whsec_\S+)$/m.exec( added.stdout )?.[ 1 ] as string;
		expect( secret ).toBeDefined();

		const again = await wp( ...SOURCE, 'add', ID, '--scheme=standard-webhooks' );
		expect( again ).toMatchObject( { status: 1, stderr: expect.stringContaining( 'source_exists, HTTP 409' ) } );
		const badScheme = await wp( ...SOURCE, 'add', 'cli-other', '--scheme=carrier-pigeon' );
		expect( badScheme.status ).toBe( 1 );
		const badId = await wp( ...SOURCE, 'add', 'Not A Slug!', '--scheme=stripe', '--secret=whsec_x' );
		expect( badId ).toMatchObject( { status: 1, stderr: expect.stringContaining( 'HTTP 400' ) } );
	} );

	it( 'lists in every format, equal to the REST route, never with a secret', async () => {
		const sources = await listed();
		const rest = await adminClient().get< { sources: Array< Record< string, unknown > > } >( `${ ADMIN }/sources` );
		expect( sources ).toEqual(
			rest.body.sources.map( ( source ) => ( {
				id: source.id,
				scheme: source.scheme,
				status: source.status,
				description: source.description,
				receiving_url: source.receiving_url,
				created_at: source.created_at,
			} ) )
		);
		expect( sources.find( ( source ) => source.id === ID ) ).toMatchObject( { description: 'cli' } );
		for ( const format of [ 'table', 'json', 'csv', 'yaml' ] ) {
			const printed = await wp( ...SOURCE, 'list', `--format=${ format }` );
			expect( printed.stdout ).toContain( ID );
			expect( printed.stdout ).not.toContain( 'whsec_' );
			expect( printed.stdout ).not.toContain( secret.slice( -8 ) );
		}
		expect( ( await wp( ...SOURCE, 'list', '--format=ids' ) ).stdout.trim().split( ' ' ) ).toEqual(
			sources.map( ( source ) => source.id )
		);
		expect( ( await wp( ...SOURCE, 'list', '--format=count' ) ).stdout.trim() ).toBe( String( sources.length ) );
	} );

	it( 'lists the events a source stored, with the filters, equal to the REST route', async () => {
		const eventId = `msg_${ randomUUID() }`;
		const body = JSON.stringify( { type: 'cli.test', timestamp: new Date().toISOString(), data: { n: 1 } } );
		const sent = await sendWebhook( ID, signStandardWebhook( secret, eventId, body ) );
		expect( sent.status ).toBe( 202 );

		// Fields that do not change while WP-Cron processes the event between the two reads.
		const fields = [ 'id', 'source', 'event_id', 'delivery_id', 'type', 'received_at' ];
		const json = await wp(
			...EVENT,
			'list',
			`--source=${ ID }`,
			'--format=json',
			`--fields=${ fields.join( ',' ) }`
		);
		const rest = await adminClient().get< { events: Array< Record< string, unknown > >; total: number } >(
			`${ ADMIN }/events?source=${ ID }`
		);
		const events = JSON.parse( json.stdout ) as Array< Record< string, unknown > >;
		expect( events ).toEqual(
			rest.body.events.map( ( event ) =>
				Object.fromEntries( fields.map( ( field ) => [ field, event[ field ] ] ) )
			)
		);
		// By default, the list's own fields, as a table prints them.
		expect(
			Object.keys(
				( JSON.parse( ( await wp( ...EVENT, 'list', '--format=json' ) ).stdout ) as object[] )[ 0 ] as object
			)
		).toEqual( [ 'id', 'source', 'event_id', 'type', 'status', 'attempts', 'received_at', 'duplicate_count' ] );
		expect( events.map( ( event ) => event.event_id ) ).toContain( eventId );
		expect( ( await wp( ...EVENT, 'list', `--event-id=${ eventId }`, '--format=ids' ) ).stdout.trim() ).toBe(
			String( events.find( ( event ) => event.event_id === eventId )?.id )
		);
		expect( ( await wp( ...EVENT, 'list', `--source=${ ID }`, '--format=count' ) ).stdout.trim() ).toBe(
			String( rest.body.total )
		);
		const table = await wp( ...EVENT, 'list', `--source=${ ID }` );
		// Tab-separated without a terminal (WP-CLI draws the borders on one).
		expect( table.stdout ).toMatch(
			/^id\tsource\tevent_id\ttype\tstatus\tattempts\treceived_at\tduplicate_count\n/
		);
		expect( table.stdout ).not.toContain( '"n":1' );

		const badStatus = await wp( ...EVENT, 'list', '--status=lost' );
		expect( badStatus.status ).toBe( 1 );
		const badSource = await wp( ...EVENT, 'list', '--source=Not A Slug!' );
		expect( badSource ).toMatchObject( {
			status: 1,
			stderr: expect.stringContaining( 'rest_invalid_param, HTTP 400' ),
		} );
	} );

	it( 'rotates the secret (printed once; --porcelain prints only it), disables and enables', async () => {
		const rotated = await wp( ...SOURCE, 'rotate-secret', ID, '--grace-hours=0', '--porcelain' );
		expect( rotated ).toMatchObject( { status: 0, stdout: expect.stringMatching( /^whsec_\S+\n$/ ) } );
		expect( rotated.stdout.trim() ).not.toBe( secret );
		const alias = await wp( ...SOURCE, 'rotate', ID, '--grace-hours=0' );
		expect( alias.stdout ).toMatch(
			/^Success: Inbound source cli-inbound has a new secret\.\nSecret .*: whsec_\S+\n$/
		);

		expect( await wp( ...SOURCE, 'disable', ID ) ).toMatchObject( {
			status: 0,
			stdout: `Success: Inbound source ${ ID } disabled.\n`,
		} );
		expect( ( await listed() ).find( ( source ) => source.id === ID )?.status ).toBe( 'disabled' );
		expect( ( await wp( ...SOURCE, 'enable', ID ) ).status ).toBe( 0 );
		expect( ( await listed() ).find( ( source ) => source.id === ID )?.status ).toBe( 'active' );
	} );

	it( 'fails clearly on an unknown source', async () => {
		for ( const command of [
			[ 'disable', 'nope-nope' ],
			[ 'rotate-secret', 'nope-nope' ],
			[ 'delete', 'nope-nope', '--yes' ],
		] ) {
			const result = await wp( ...SOURCE, ...command );
			expect( result.status ).toBe( 1 );
			expect( result.stderr ).toMatch(
				/source_not_found, HTTP 404\) List the sources with: wp service-integration inbound source list/
			);
		}
	} );

	it( 'deletes only with --yes', async () => {
		const unconfirmed = await wp( ...SOURCE, 'delete', ID );
		expect( unconfirmed ).toMatchObject( { status: 1, stderr: expect.stringContaining( '--yes' ) } );
		expect( ( await listed() ).map( ( source ) => source.id ) ).toContain( ID );
		expect( await wp( ...SOURCE, 'delete', ID, '--yes' ) ).toMatchObject( {
			status: 0,
			stdout: `Success: Inbound source ${ ID } deleted.\n`,
		} );
		expect( ( await listed() ).map( ( source ) => source.id ) ).not.toContain( ID );
	} );

	it( 'refuses a user who is not an administrator', async () => {
		const result = await wp( ...SOURCE, 'list', '--no-user' );
		expect( result ).toMatchObject( { status: 1, stderr: expect.stringContaining( '--user=<login>' ) } );
	} );
} );
