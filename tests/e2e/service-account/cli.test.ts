import { spawnSync } from 'child_process';
import { readState } from '../support/environment';
import { CLI_ROOT, CLI_SCRIPT, cli } from './run-cli';

describe( 'npm run service-account (command line, for CI and site owners)', () => {
	it( 'creates the account and prints a working password once', async () => {
		expect( await cli( 'create' ) ).toMatchObject( {
			status: 0,
			stdout: expect.stringMatching( /service-integration \(role service_integration\)/ ),
		} );
		const created = await cli( 'password', '--name=cli-test' );
		expect( created.status ).toBe( 0 );
		const authorization = /^Authorization: (Basic \S+)$/m.exec( created.stdout )?.[ 1 ];
		expect( authorization ).toBeDefined();
		const me = await fetch( `${ readState().siteUrl }/wp-json/service-integration/v1/me`, {
			headers: { authorization: authorization as string, cookie: 'playground_auto_login_already_happened=1' },
		} );
		expect( me.status ).toBe( 200 );
	} );

	it( 'runs the least-privilege check and exits 0 when every refusal holds', async () => {
		const result = await cli( 'check' );
		expect( result.stdout ).toMatch( /✓ GET\s+\/wp\/v2\/users\s+expected refused got 403 rest_forbidden/ );
		expect( result.stdout ).toMatch( /✓ POST\s+\/wp\/v2\/plugins\s+expected refused got 403 rest_forbidden/ );
		expect( result.stdout ).toContain( 'widening detected: none' );
		expect( result.stdout ).toContain( 'PASSED' );
		expect( result.status ).toBe( 0 );
	} );

	it( 'fails clearly on a bad command or bad credentials', async () => {
		expect( await cli( 'frobnicate' ) ).toMatchObject( {
			status: 1,
			stderr: expect.stringContaining( 'unknown command "frobnicate"' ),
		} );
		const { siteUrl } = readState();
		const result = spawnSync(
			process.execPath,
			[
				'-r',
				'ts-node/register/transpile-only',
				CLI_SCRIPT,
				'status',
				`--site=${ siteUrl }`,
				'--admin-password=wrong wrong wrong',
			],
			{ cwd: CLI_ROOT, encoding: 'utf8', timeout: 60_000 }
		);
		expect( result.status ).toBe( 1 );
		expect( result.stderr ).toMatch( /HTTP 401 incorrect_password/ );
	} );
} );
