import { adminClient } from '../support/clients';
import { wp } from './run-wp';

const GROUP = [ 'service-integration', 'service-account' ];
const PASSWORD = [ ...GROUP, 'password' ];

describe( 'wp service-integration service-account (WP-CLI, the same routes as the admin page)', () => {
	it( 'lists the commands in help, each with its synopsis and examples', async () => {
		const top = await wp( 'help', 'service-integration' );
		expect( top.status ).toBe( 0 );
		expect( top.stdout ).toContain( 'service-account' );
		const group = await wp( 'help', ...GROUP );
		expect( group.stdout ).toMatch( /check[\s\S]*create[\s\S]*password[\s\S]*status/ );
		const passwords = await wp( 'help', ...PASSWORD );
		expect( passwords.stdout ).toMatch( /create[\s\S]*list[\s\S]*revoke/ );
		const create = await wp( 'help', ...PASSWORD, 'create' );
		expect( create.stdout ).toContain( '--name=<name>' );
		expect( create.stdout ).toContain( 'EXAMPLES' );
	} );

	it( 'refuses to run as nobody, saying how to fix it', async () => {
		const result = await wp( ...GROUP, 'status', '--no-user' );
		expect( result.status ).toBe( 1 );
		expect( result.stderr ).toContain( '--user=' );
	} );

	it( 'creates the account idempotently, --porcelain printing the login', async () => {
		const created = await wp( ...GROUP, 'create' );
		expect( created.status ).toBe( 0 );
		expect( created.stdout ).toMatch( /Success: Service account "service-integration" (created|already exists)/ );
		expect( await wp( ...GROUP, 'create', '--porcelain' ) ).toMatchObject( {
			status: 0,
			stdout: 'service-integration\n',
		} );
		const other = await wp( ...GROUP, 'create', '--username=someone-else' );
		expect( other.status ).toBe( 1 );
		expect( other.stderr ).toMatch( /already exists.*service_account_exists, HTTP 409/ );
	} );

	it( 'prints a new password once, which signs in; the list never shows it', async () => {
		const created = await wp( ...PASSWORD, 'create', '--name=cli-e2e' );
		expect( created.status ).toBe( 0 );
		const password = /^Password: (.+)$/m.exec( created.stdout )?.[ 1 ] as string;
		const authorization = /^Authorization: (Basic \S+)$/m.exec( created.stdout )?.[ 1 ] as string;
		expect( password ).toMatch( /^(\w{4} ){5}\w{4}$/ );
		const me = await fetch( `${ adminClient().siteUrl }/wp-json/service-integration/v1/me`, {
			headers: { authorization },
		} );
		expect( me.status ).toBe( 200 );

		const porcelain = await wp( ...PASSWORD, 'create', '--name=cli-e2e-porcelain', '--porcelain' );
		expect( porcelain.stdout ).toMatch( /^(\w{4} ){5}\w{4}\n$/ );

		const table = await wp( ...PASSWORD, 'list' );
		expect( table.stdout ).toContain( 'cli-e2e' );
		for ( const secret of [ password, porcelain.stdout.trim() ] ) {
			expect( table.stdout ).not.toContain( secret );
			expect( table.stdout ).not.toContain( secret.replace( / /g, '' ) );
		}
	} );

	it( 'lists passwords in every format, equal to the REST route', async () => {
		const json = await wp( ...PASSWORD, 'list', '--format=json' );
		const listed = JSON.parse( json.stdout ) as Array< Record< string, unknown > >;
		const rest = await adminClient().get< { application_passwords: unknown[] } >(
			'/service-integration/v1/service-account'
		);
		expect( listed ).toEqual( rest.body.application_passwords );

		const ids = await wp( ...PASSWORD, 'list', '--format=ids' );
		expect( ids.stdout.trim().split( ' ' ) ).toEqual( listed.map( ( item ) => item.uuid ) );
		expect( ( await wp( ...PASSWORD, 'list', '--format=count' ) ).stdout.trim() ).toBe( String( listed.length ) );
		const csv = await wp( ...PASSWORD, 'list', '--format=csv', '--fields=uuid,name' );
		expect( csv.stdout.split( '\n' )[ 0 ] ).toBe( 'uuid,name' );
	} );

	it( 'revokes with --yes only; an unknown or malformed UUID fails clearly', async () => {
		const listed = JSON.parse( ( await wp( ...PASSWORD, 'list', '--format=json' ) ).stdout ) as Array< {
			uuid: string;
			name: string;
		} >;
		const { uuid } = listed.find( ( item ) => item.name === 'cli-e2e-porcelain' ) as { uuid: string };

		const unconfirmed = await wp( ...PASSWORD, 'revoke', uuid );
		expect( unconfirmed.status ).toBe( 1 );
		expect( unconfirmed.stderr ).toContain( '--yes' );
		expect( ( await wp( ...PASSWORD, 'list', '--format=ids' ) ).stdout ).toContain( uuid );

		expect( await wp( ...PASSWORD, 'revoke', uuid, '--yes' ) ).toMatchObject( {
			status: 0,
			stdout: expect.stringContaining( `Success: Application password ${ uuid } revoked.` ),
		} );
		expect( ( await wp( ...PASSWORD, 'list', '--format=ids' ) ).stdout ).not.toContain( uuid );

		const again = await wp( ...PASSWORD, 'revoke', uuid, '--yes' );
		expect( again.status ).toBe( 1 );
		expect( again.stderr ).toMatch( /HTTP 404.*password list/ );
		const malformed = await wp( ...PASSWORD, 'revoke', 'nope', '--yes' );
		expect( malformed.status ).toBe( 1 );
		expect( malformed.stderr ).toContain( '"nope" is not an application password UUID' );
	} );

	it( 'shows the status, its JSON equal to the REST route', async () => {
		const table = await wp( ...GROUP, 'status' );
		expect( table.status ).toBe( 0 );
		expect( table.stdout ).toMatch( /account\s+\|?\s*service-integration \(#\d+\)/ );
		const json = JSON.parse( ( await wp( ...GROUP, 'status', '--format=json' ) ).stdout ) as unknown;
		const rest = await adminClient().get( '/service-integration/v1/service-account' );
		// One object, as the route answers.
		expect( json ).toEqual( rest.body );
	} );

	it( 'runs the least-privilege check: a summary, exit 0, and the REST report in JSON', async () => {
		const result = await wp( ...GROUP, 'check' );
		expect( result.stdout ).toMatch( /^true\s+GET\s+\/wp\/v2\/users\s+refused\s+403\s+rest_forbidden$/m );
		expect( result.stdout ).toMatch(
			/Success: Least-privilege check passed: (\d+) of \1 calls behaved as expected\./
		);
		expect( result.status ).toBe( 0 );

		const json = await wp( ...GROUP, 'check', '--format=json' );
		const report = JSON.parse( json.stdout ) as { passed: boolean; results: Array< Record< string, unknown > > };
		const rest = await adminClient().post< typeof report >( '/service-integration/v1/service-account/check' );
		expect( report.passed ).toBe( true );
		expect( report.results.map( ( { method, route, status, code } ) => [ method, route, status, code ] ) ).toEqual(
			rest.body.results.map( ( { method, route, status, code } ) => [ method, route, status, code ] )
		);
	} );
} );
