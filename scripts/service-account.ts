/**
 * npm run service-account -- <command>: provision and check the service account from the
 * command line (CI, shell scripts), through the plugin's administrator REST routes.
 */
import { parseFlags } from './lib/cli-args';
import type { Credentials, RestClient } from './lib/rest-client';

const HELP = `Usage: npm run service-account -- <command> [options]

Commands:
  status            the role, its capabilities, the account, its application passwords, widening
  create            create the service account (idempotent; the login is chosen once) [--username=service-integration]
  password          create an application password, printed ONCE    [--name=automation]
                    [--credentials: print only user:password, for curl -u and scripts]
  revoke            revoke an application password                   --uuid=<uuid>
  check             run the least-privilege check: a temporary account with the role and an application
                    password calls users, plugins, settings…; exits 1 if any call is not refused
                    with the expected code, or if widening is detected

Options:
  --site=<url>              site URL (env SI_SITE_URL; default http://localhost:8888, the npm start site)
  --admin=<login>           administrator login (env SI_ADMIN_USER; default admin)
  --admin-password=<pass>   an administrator APPLICATION password (env SI_ADMIN_PASSWORD). Without it,
                            the login password from SI_ADMIN_LOGIN_PASSWORD (default "password", the
                            npm start site's) is used through wp-login.php.
  --json                    print the raw JSON answer
  --help                    this text
`;

async function adminClient( site: string, flags: Record< string, string | true > ): Promise< RestClient > {
	const login = String( flags.admin ?? process.env.SI_ADMIN_USER ?? 'admin' );
	const appPassword = flags[ 'admin-password' ] ?? process.env.SI_ADMIN_PASSWORD;
	// Loaded here, not before --help is answered: they take a while to load.
	const [ { RestClient: Client }, { loginCookies, restNonce } ] = await Promise.all( [
		import( './lib/rest-client' ),
		import( './lib/wp-login' ),
	] );
	let credentials: Credentials;
	if ( typeof appPassword === 'string' && appPassword ) {
		credentials = { username: login, password: appPassword };
	} else {
		const cookie = await loginCookies( site, login, process.env.SI_ADMIN_LOGIN_PASSWORD ?? 'password' );
		credentials = { cookie, nonce: await restNonce( site, cookie ) };
	}
	return new Client( site, credentials );
}

function fail( message: string ): never {
	process.stderr.write( `service-account: ${ message }\n` );
	process.exit( 1 );
}

async function main(): Promise< void > {
	const [ command, ...rest ] = process.argv.slice( 2 );
	if ( ! command || command === '--help' || command === 'help' ) {
		process.stdout.write( HELP );
		return;
	}
	let flags: Record< string, string | true >;
	try {
		flags = parseFlags( rest, [
			'site',
			'admin',
			'admin-password',
			'username',
			'name',
			'uuid',
			'json',
			'credentials',
			'help',
		] );
	} catch ( error ) {
		return fail( ( error as Error ).message );
	}
	if ( flags.help ) {
		process.stdout.write( HELP );
		return;
	}
	const site = String( flags.site ?? process.env.SI_SITE_URL ?? 'http://localhost:8888' ).replace( /\/$/, '' );
	const admin = await adminClient( site, flags ).catch( ( error: Error ) =>
		fail( `cannot authenticate as administrator on ${ site }: ${ error.message }` )
	);
	const base = '/service-integration/v1/service-account';

	const call = async ( method: string, path: string, data?: unknown ) => {
		const result = await admin.request< Record< string, unknown > >( { method, path, data } );
		if ( result.status >= 400 ) {
			fail(
				`${ method } ${ path } → HTTP ${ result.status } ${ String( result.body?.code ?? '' ) }: ${ String( result.body?.message ?? '' ) }`
			);
		}
		if ( flags.json ) {
			process.stdout.write( JSON.stringify( result.body, null, 2 ) + '\n' );
		}
		return result.body;
	};

	switch ( command ) {
		case 'status': {
			const body = await call( 'GET', base );
			if ( ! flags.json ) {
				const account = body.account as { username: string } | null;
				process.stdout.write(
					`role: ${ body.role_exists ? 'present' : 'missing' }\naccount: ${ account ? account.username : 'none' }\n`
				);
				process.stdout.write(
					`application passwords: ${ ( body.application_passwords as unknown[] ).length }\nwidening detected: ${ ( body.widening_detected as string[] ).join( ', ' ) || 'none' }\n`
				);
			}
			break;
		}
		case 'create': {
			const body = await call( 'POST', base, flags.username ? { username: flags.username } : undefined );
			if ( ! flags.json ) {
				process.stdout.write(
					`${ body.created ? 'created' : 'already exists' }: ${ String( body.username ) } (role service_integration)\n`
				);
			}
			break;
		}
		case 'password': {
			const body = await call( 'POST', `${ base }/application-passwords`, {
				name: String( flags.name ?? 'automation' ),
			} );
			if ( flags.credentials ) {
				process.stdout.write( `${ String( body.username ) }:${ String( body.password ) }\n` );
			} else if ( ! flags.json ) {
				process.stdout.write(
					`user:          ${ String( body.username ) }\npassword:      ${ String( body.password ) }   (shown once)\nuuid:          ${ String( body.uuid ) }\nAuthorization: ${ String( body.authorization ) }\n`
				);
			}
			break;
		}
		case 'revoke': {
			if ( typeof flags.uuid !== 'string' ) {
				fail( 'revoke needs --uuid=<uuid>' );
			}
			await call( 'DELETE', `${ base }/application-passwords/${ flags.uuid }` );
			if ( ! flags.json ) {
				process.stdout.write( `revoked ${ flags.uuid }\n` );
			}
			break;
		}
		case 'check': {
			const body = await call( 'POST', `${ base }/check` );
			if ( ! flags.json ) {
				for ( const result of body.results as Array< Record< string, unknown > > ) {
					process.stdout.write(
						`${ result.passed ? '✓' : '✗' } ${ String( result.method ).padEnd( 6 ) } ${ String( result.route ).padEnd( 45 ) } expected ${ String( result.expected ).padEnd( 7 ) } got ${ String( result.status ) } ${ String( result.code ?? '' ) }\n`
					);
				}
				const widening = ( body.widening_detected as string[] | undefined ) ?? [];
				process.stdout.write(
					`application password authenticates as the temporary account: ${ body.authenticated ? 'yes' : 'NO' }\n`
				);
				process.stdout.write(
					`widening detected: ${ widening.join( ', ' ) || 'none' }\n${ body.passed ? 'PASSED' : 'FAILED' }\n`
				);
			}
			process.exit( body.passed ? 0 : 1 );
			break;
		}
		default:
			fail( `unknown command "${ command }"; see --help` );
	}
}

void main();
