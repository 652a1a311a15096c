import { PLAYGROUND_COOKIE } from '../../../scripts/lib/wp-env';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';
import { provisionServiceAccount, type ServiceAccount } from '../support/service-account';

/**
 * WooCommerce 9.6+ calls current_user_can() during plugins_loaded on every front-end page and
 * Store API call (Features::should_load_features()). That resolves an Authorization: Basic header before WordPress has $wp_rewrite, and runs
 * the plugin's application_password_is_api_request filter there. It must neither crash (it used
 * to call rest_url(): "Call to a member function using_index_permalinks() on null", HTTP 500 on
 * every page of a staging site behind HTTP Basic auth) nor lose what it is for: REST requests
 * with a wrong application password still get a clear 401.
 */
describe( 'an Authorization: Basic header where WooCommerce resolves the user during plugins_loaded', () => {
	let account: ServiceAccount;
	const { siteUrl, admin, commerce } = readState();
	const basic = ( username: string, password: string ) =>
		'Basic ' + Buffer.from( `${ username }:${ password }` ).toString( 'base64' );
	const WRONG_PASSWORD = 'abcd efgh ijkl mnop qrst uvwx';

	beforeAll( async () => {
		account = await provisionServiceAccount( 'front-end-basic-auth' );
	} );

	const call = async ( path: string, authorization: string ) => {
		const mark = debugLogMark();
		const response = await fetch( `${ siteUrl }${ path }`, {
			headers: { authorization, cookie: PLAYGROUND_COOKIE },
			redirect: 'manual',
		} );
		const text = await response.text();
		let code: string | undefined;
		if ( text.startsWith( '{' ) ) {
			code = ( JSON.parse( text ) as { code?: string } ).code;
		}
		// Non-fatal notices raised in WooCommerce's own files are WooCommerce's (9.4.3's Store API
		// product query passes null to strtotime() in src/StoreApi/Utilities/ProductQuery.php,
		// a PHP 8.1+ deprecation); everything else, and any fatal error, counts.
		const problems = phpProblemsSince( mark ).filter(
			( line ) =>
				/PHP (Fatal|Parse) error/.test( line ) || ! /\/plugins\/woocommerce\/\S+ on line \d+\s*$/.test( line )
		);
		return { status: response.status, code, problems, text };
	};

	const identities = {
		'the service account application password': () => basic( account.username, account.password ),
		'an administrator application password': () => basic( admin.username, admin.applicationPassword ),
		"a staging site's HTTP Basic credentials (not an application password)": () =>
			basic( 'staging-visitor', 'let-me-see-the-staging-site' ),
		'a wrong application password of the service account': () => basic( account.username, WRONG_PASSWORD ),
	};
	type Identity = keyof typeof identities;

	/**
	 * Expected answers. The front end ignores application passwords (core keeps them to API
	 * requests), so every identity sees the page. The REST index at /wp-json (no trailing slash:
	 * WooCommerce does not count it as a REST request, so the user is resolved in plugins_loaded)
	 * authenticates the application password there and reports bad credentials clearly.
	 */
	const cases: Array< [ string, Identity, { status: number; code?: string } ] > = [
		[ '/', 'the service account application password', { status: 200 } ],
		[ '/', 'an administrator application password', { status: 200 } ],
		[ '/', "a staging site's HTTP Basic credentials (not an application password)", { status: 200 } ],
		[ '/', 'a wrong application password of the service account', { status: 200 } ],
		[ '/wp-json', 'the service account application password', { status: 200 } ],
		[ '/wp-json', 'an administrator application password', { status: 200 } ],
		[
			'/wp-json',
			"a staging site's HTTP Basic credentials (not an application password)",
			{ status: 401, code: 'invalid_username' },
		],
		[
			'/wp-json',
			'a wrong application password of the service account',
			{ status: 401, code: 'incorrect_password' },
		],
		[
			'/wp-json/',
			'a wrong application password of the service account',
			{ status: 401, code: 'incorrect_password' },
		],
		[
			'/index.php/wp-json/',
			'a wrong application password of the service account',
			{ status: 401, code: 'incorrect_password' },
		],
	];
	if ( commerce === 'woocommerce' ) {
		// WooCommerce's Store API (on a site with a shop). The service account is
		// authenticated there, so the plugin's route allow-list refuses it: proof that the
		// application password was resolved as an API request during plugins_loaded.
		// Credentials that fail are served as a guest: WooCommerce's Store API turns an empty
		// rest_authentication_errors result into `true` at priority 10
		// (src/StoreApi/Authentication.php, check_authentication()), before core's application
		// password error (priority 90) and the plugin's (95) could report them.
		cases.push(
			[
				'/wp-json/wc/store/v1/cart',
				'the service account application password',
				{ status: 403, code: 'rest_forbidden' },
			],
			[
				'/wp-json/wc/store/v1/products',
				'the service account application password',
				{ status: 403, code: 'rest_forbidden' },
			],
			[ '/wp-json/wc/store/v1/products', 'an administrator application password', { status: 200 } ],
			[ '/wp-json/wc/store/v1/cart', 'an administrator application password', { status: 200 } ],
			[
				'/wp-json/wc/store/v1/products',
				"a staging site's HTTP Basic credentials (not an application password)",
				{ status: 200 },
			],
			[ '/wp-json/wc/store/v1/cart', 'a wrong application password of the service account', { status: 200 } ]
		);
	}

	it.each( cases )( 'GET %s with %s → %j, no PHP error', async ( path, identity, expected ) => {
		const result = await call( path, identities[ identity ]() );
		expect( result.problems ).toEqual( [] );
		expect( { status: result.status, code: result.code } ).toEqual( {
			status: expected.status,
			code: expected.code,
		} );
	} );

	it( "the front page is the site's page, not an error page", async () => {
		const result = await call(
			'/',
			identities[ "a staging site's HTTP Basic credentials (not an application password)" ]()
		);
		expect( result.status ).toBe( 200 );
		expect( result.text ).toMatch( /<html[\s>]/i );
		expect( result.text ).not.toContain( 'critical error' );
	} );
} );
