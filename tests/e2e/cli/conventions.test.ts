import path from 'node:path';
import { adminClient } from '../support/clients';
import { readState } from '../support/environment';
import { wp } from './run-wp';

const ROUTE = '/service-integration/v1/webhooks';
const SOURCES = '/service-integration/v1/inbound/sources';
// A loopback receiver (allow-listed for the suite's sidecar); nothing is delivered in this file.
const URL = 'http://127.0.0.1:9599/cli-conventions';
const SOURCE_ID = 'cli-conventions';
/** Makes the e2e site an HTTPS site that is not a local environment, for one WP-CLI run. */
const HTTPS_SITE = `--require=${ path.join( __dirname, '..', '..', 'fixtures', 'wp-cli', 'https-site.php' ) }`;

interface Command {
	name: string;
	description: string;
	subcommands?: Command[];
}

/** WP-CLI's own parse of the plugin's commands: name, short description (what `wp help` lists), subcommands. */
const WALK = `$walk = function ( $command ) use ( &$walk ) {
	return array(
		'name'        => $command->get_name(),
		'description' => $command->get_shortdesc(),
		'subcommands' => $command->can_have_subcommands() ? array_values( array_map( $walk, $command->get_subcommands() ) ) : array(),
	);
};
echo wp_json_encode( $walk( WP_CLI::get_root_command()->get_subcommands()['service-integration'] ) );`;

/** Every command under one, with its full name. */
function commands( command: Command, prefix = '' ): Array< { name: string; description: string } > {
	const name = `${ prefix }${ command.name }`;
	return [
		{ name, description: command.description },
		...( command.subcommands ?? [] ).flatMap( ( sub ) => commands( sub, `${ name } ` ) ),
	];
}

/** PHP's notices in what a command printed (WP_DEBUG is on in the e2e site, so they show). */
function phpNotices( output: { stdout: string; stderr: string } ): string[] {
	return `${ output.stdout }\n${ output.stderr }`
		.split( '\n' )
		.filter( ( line ) => /\b(Deprecated|Warning|Notice):|Passing null/.test( line ) );
}

describe( 'wp service-integration: what WP-CLI users expect of any command', () => {
	let endpoint = '';

	beforeAll( async () => {
		await adminClient().request( { method: 'DELETE', path: `${ SOURCES }/${ SOURCE_ID }` } );
		const added = await wp( 'service-integration', 'endpoint', 'add', URL, '--porcelain' );
		expect( added.status ).toBe( 0 );
		endpoint = added.stdout.trim();
	} );

	// Nothing listens at URL: an endpoint left active would get every later test's order events.
	afterAll( async () => {
		await adminClient().request( { method: 'DELETE', path: `${ ROUTE }/endpoints/${ endpoint }` } );
		await adminClient().request( { method: 'DELETE', path: `${ SOURCES }/${ SOURCE_ID }` } );
	} );

	it( 'describes every command in a whole sentence (WP-CLI shows only the first line of a docblock)', async () => {
		// `wp cli cmd-dump` runs before WordPress loads, so without the plugin's commands: the
		// same walk of WP-CLI's command tree, once the plugin has registered them.
		const dump = await wp( 'eval', WALK );
		expect( dump.status ).toBe( 0 );
		const described = commands( JSON.parse( dump.stdout ) as Command );
		// The namespaces and each command of the plugin: 12 groups and namespaces, 30 commands or so.
		expect( described.length ).toBeGreaterThan( 30 );
		const cut = described.filter( ( { description } ) => ! /\.$/.test( description ) );
		expect( cut ).toEqual( [] );
	} );

	it.each( [
		[
			[ 'endpoint', 'rotate-secret', '<endpoint>', '--grace-hours=abc' ],
			'--grace-hours must be a number, not "abc".',
		],
		[
			[ 'endpoint', 'add', `${ URL }/refused`, '--max-concurrency=four' ],
			'--max-concurrency must be a whole number',
		],
		[ [ 'endpoint', 'update', '<endpoint>', '--max-concurrency=2x' ], '--max-concurrency must be a whole number' ],
		[
			[
				'endpoint',
				'replay-range',
				'<endpoint>',
				'--from=2026-01-01T00:00:00Z',
				'--to=2026-01-02T00:00:00Z',
				'--limit=ten',
				'--dry-run',
			],
			'--limit must be a whole number, not "ten".',
		],
		[
			[ 'inbound', 'source', 'add', SOURCE_ID, '--scheme=standard-webhooks', '--tolerance-seconds=abc' ],
			'--tolerance-seconds must be a whole number, not "abc".',
		],
		[ [ 'inbound', 'source', 'rotate-secret', SOURCE_ID, '--grace-hours=1h' ], '--grace-hours must be a number' ],
		[ [ 'delivery', 'list', '--page=abc' ], '--page must be a whole number' ],
		[ [ 'delivery', 'list', '--per-page=1.5' ], '--per-page must be a whole number' ],
		[ [ 'inbound', 'event', 'list', '--per-page=many' ], '--per-page must be a whole number' ],
	] )( 'refuses a number option that is not one, naming it, before any call: %j', async ( command, message ) => {
		const before = await adminClient().get< { endpoints: Array< { id: string; secrets?: unknown[] } > } >(
			`${ ROUTE }/endpoints`
		);
		const result = await wp(
			'service-integration',
			...command.map( ( arg ) => arg.replace( '<endpoint>', endpoint ) )
		);
		expect( result ).toMatchObject( { status: 1, stdout: '' } );
		expect( result.stderr ).toContain( `Error: ${ message }` );
		// Nothing was done: no endpoint or source added, the secret not rotated (0 hours would have
		// dropped the old one at once).
		const after = await adminClient().get< typeof before.body >( `${ ROUTE }/endpoints` );
		expect( after.body ).toEqual( before.body );
		expect( ( await adminClient().get( `${ SOURCES }/${ SOURCE_ID }` ) ).status ).toBe( 404 );
	} );

	it( 'takes hours with decimals, and whole numbers where the route wants them', async () => {
		expect(
			(
				await wp(
					'service-integration',
					'endpoint',
					'rotate-secret',
					endpoint,
					'--grace-hours=0.5',
					'--porcelain'
				)
			).stdout
		).toMatch( /^whsec_\S+\n$/ );
		const added = await wp(
			'service-integration',
			'inbound',
			'source',
			'add',
			SOURCE_ID,
			'--scheme=standard-webhooks',
			'--tolerance-seconds=120'
		);
		expect( added.status ).toBe( 0 );
		const source = await adminClient().get< { tolerance_seconds: number } >( `${ SOURCES }/${ SOURCE_ID }` );
		expect( source.body.tolerance_seconds ).toBe( 120 );
	} );

	it( 'gives a hint only with the error it fits', async () => {
		// The account exists: an empty name is the route's 400, not "create the account first".
		await wp( 'service-integration', 'service-account', 'create' );
		const unnamed = await wp( 'service-integration', 'service-account', 'password', 'create', '--name=' );
		expect( unnamed.status ).toBe( 1 );
		expect( unnamed.stderr ).toMatch( /HTTP 400/ );
		expect( unnamed.stderr ).not.toContain( 'Create the account first' );

		const badFilter = await wp( 'service-integration', 'delivery', 'list', '--status=lost' );
		expect( badFilter.status ).toBe( 1 );
		expect( badFilter.stderr ).toContain( 'HTTP 400' );
		expect( badFilter.stderr ).not.toContain( 'endpoint list' );
		const unknownEndpoint = await wp( 'service-integration', 'delivery', 'list', '--endpoint=nope-nope' );
		expect( unknownEndpoint.stderr ).toMatch( /endpoint_not_found, HTTP 404\) List the endpoints with/ );

		const yesterday = await wp(
			'service-integration',
			'endpoint',
			'replay-range',
			endpoint,
			'--from=yesterday',
			'--to=2026-01-02T00:00:00Z',
			'--dry-run'
		);
		expect( yesterday.status ).toBe( 1 );
		// WordPress refuses it before the sidecar: its reason, then the format to use.
		expect( yesterday.stderr ).toContain(
			'Invalid parameter(s): from — from: Invalid date. (rest_invalid_param, HTTP 400) --from and --to take ISO 8601 with a time zone, for example 2026-01-01T00:00:00Z'
		);
		expect( yesterday.stderr ).not.toContain( 'endpoint list' );
	} );

	it( 'keeps a machine format’s stdout to the data: no Success line in the check’s CSV or YAML', async () => {
		const csv = await wp( 'service-integration', 'service-account', 'check', '--format=csv' );
		expect( csv.status ).toBe( 0 );
		const lines = csv.stdout.trim().split( '\n' );
		expect( lines[ 0 ] ).toBe( 'passed,method,route,expected,status,code' );
		expect( lines.slice( 1 ).every( ( line ) => /^true,(GET|POST),\//.test( line ) ) ).toBe( true );
		expect( csv.stdout ).not.toContain( 'Success' );

		const yaml = await wp( 'service-integration', 'service-account', 'check', '--format=yaml' );
		expect( yaml.status ).toBe( 0 );
		expect( yaml.stdout ).not.toContain( 'Success' );
		expect( ( await wp( 'service-integration', 'service-account', 'check' ) ).stdout ).toMatch(
			/^Success: Least-privilege check passed: (\d+) of \1 calls behaved as expected\.$/m
		);
	} );

	it( 'prints empty values without PHP deprecations: an empty cell in a table, null in YAML', async () => {
		const rest = await adminClient().get< { endpoints: Array< { id: string; disabled_reason: string | null } > } >(
			`${ ROUTE }/endpoints`
		);
		expect( rest.body.endpoints.find( ( item ) => item.id === endpoint )?.disabled_reason ).toBeNull();

		const table = await wp( 'service-integration', 'endpoint', 'list' );
		expect( table.status ).toBe( 0 );
		expect( phpNotices( table ) ).toEqual( [] );
		expect( table.stdout ).toContain( endpoint );

		const yaml = await wp( 'service-integration', 'endpoint', 'list', '--format=yaml' );
		expect( phpNotices( yaml ) ).toEqual( [] );
		expect( yaml.stdout ).toMatch( new RegExp( `id: ${ endpoint }\\n(?:.*\\n)*?\\s+disabled_reason: null\\n` ) );

		for ( const format of [ 'table', 'yaml', 'json' ] ) {
			const status = await wp( 'service-integration', 'outbox', 'status', `--format=${ format }` );
			expect( status.status ).toBe( 0 );
			expect( phpNotices( status ) ).toEqual( [] );
		}
	} );

	describe( 'on an HTTPS site run without --url=https://…', () => {
		const httpsUrl = (): string => `${ readState().siteUrl.replace( /^http:/, 'https:' ) }/`;
		const hint = (): string => `Add --url=${ httpsUrl() } to the command.`;

		it( 'names the option to add, instead of a failed check whose calls all behaved', async () => {
			const check = await wp( HTTPS_SITE, 'service-integration', 'service-account', 'check' );
			expect( check.status ).toBe( 1 );
			expect( check.stderr ).toContain( 'This site is served over HTTPS, but WP-CLI ran without its address' );
			expect( check.stderr ).toContain( hint() );
			expect( check.stdout ).not.toMatch( /behaved as expected/ );

			const password = await wp(
				HTTPS_SITE,
				'service-integration',
				'service-account',
				'password',
				'create',
				'--name=https-cli'
			);
			expect( password.status ).toBe( 1 );
			expect( password.stderr ).toContain( '(application_passwords_disabled, HTTP 409)' );
			expect( password.stderr ).toContain( hint() );

			const status = await wp( HTTPS_SITE, 'service-integration', 'service-account', 'status' );
			expect( status.status ).toBe( 0 );
			expect( status.stderr ).toContain( `Warning: This site is served over HTTPS` );
			expect( status.stderr ).toContain( hint() );
		} );

		it( 'runs the check with --url=https://…, as the hint says', async () => {
			const check = await wp(
				HTTPS_SITE,
				`--url=${ httpsUrl() }`,
				'service-integration',
				'service-account',
				'check'
			);
			expect( check.stderr ).toBe( '' );
			expect( check.status ).toBe( 0 );
			expect( check.stdout ).toMatch( /^Success: Least-privilege check passed: (\d+) of \1 calls/m );
		} );
	} );
} );
