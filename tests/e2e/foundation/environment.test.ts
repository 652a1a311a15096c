import { adminClient, anonymousClient } from '../support/clients';
import { debugLogMark, phpProblemsSince } from '../support/debug-log';
import { readState } from '../support/environment';

describe( 'the running WordPress', () => {
	it( 'serves pretty REST URLs with the plugin namespace and Application Passwords available', async () => {
		const index = await anonymousClient().get< { namespaces: string[]; authentication: Record< string, unknown > } >( '/' );
		expect( index.status ).toBe( 200 );
		expect( index.body.namespaces ).toContain( 'service-integration/v1' );
		expect( index.body.authentication ).toHaveProperty( 'application-passwords' );
	} );

	it( 'has the plugin active under its own slug', async () => {
		const plugins = await adminClient().get< Array< { plugin: string; status: string; name: string } > >( '/wp/v2/plugins' );
		expect( plugins.status ).toBe( 200 );
		const ours = plugins.body.find( ( plugin ) => plugin.plugin === 'service-integration/service-integration' );
		expect( ours ).toMatchObject( { status: 'active', name: 'Service Integration' } );
	} );

	it( 'authenticates the administrator with an application password over HTTP Basic', async () => {
		const me = await adminClient().get< { slug: string } >( '/wp/v2/users/me' );
		expect( me.status ).toBe( 200 );
		expect( me.body.slug ).toBe( 'admin' );
	} );

	// WP_DEBUG_DISPLAY is off (a notice would never reach the body): WP_DEBUG_LOG's file is read.
	it( 'answers API clients directly (no Playground auto-login redirect) and logs no PHP notice meanwhile', async () => {
		const mark = debugLogMark();
		const response = await fetch( `${ readState().siteUrl }/wp-json/service-integration/v1`, { redirect: 'manual' } );
		expect( response.status ).toBe( 200 );
		const text = await response.text();
		expect( () => JSON.parse( text ) ).not.toThrow();
		expect( phpProblemsSince( mark ) ).toEqual( [] );
		expect( response.headers.get( 'x-wp-doingitwrong' ) ).toBeNull();
	} );
} );
